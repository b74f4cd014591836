"""A workspace's budget settings as the engine reads them on every turn (Core, no ORM)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from vigia.workspaces.models import Workspace


def budget_row(
    session: Session, workspace_id: str, lock: bool = False
) -> Row[Any, Any, Any] | None:
    """``(id, budget_usd, budget_action)`` of the workspace, or None.

    ``lock`` takes the row for this transaction (``FOR NO KEY UPDATE`` on PostgreSQL, which
    does not conflict with the key-share locks that inserts referencing the row take).
    """
    columns = Workspace.__table__.c
    query = select(columns.id, columns.budget_usd, columns.budget_action).where(
        columns.id == workspace_id
    )
    if lock:
        query = query.with_for_update(key_share=True)
    return session.connection().execute(query).first()
