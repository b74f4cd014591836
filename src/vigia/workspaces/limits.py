"""A workspace's limits as other packages read them: budget settings (every turn), quota and
the hosts its agents' tools may call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from vigia.errors import NotFound
from vigia.workspaces.models import Workspace
from vigia.workspaces.settings_cache import get_settings_cache


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


def decide_quota(session: Session, workspace_id: str) -> int:
    """The workspace's monthly token quota for the decide API."""
    quota = session.scalar(
        select(Workspace.decide_quota_tokens).where(Workspace.id == workspace_id)
    )
    if quota is None:
        raise NotFound("workspace not found")
    return int(quota)


def tool_hosts(session: Session, workspace_id: str) -> list[str]:
    """The host entries the workspace's agent tools may call (``vigia.egress.HostPolicy``)."""
    hosts = session.scalar(select(Workspace.tool_hosts).where(Workspace.id == workspace_id))
    return list(hosts or [])


@dataclass(frozen=True)
class TurnLimits:
    """What a turn reads of its workspace: the budget settings and the hosts."""

    id: str
    budget_usd: float | None
    budget_action: str
    tool_hosts: tuple[str, ...]


def turn_limits(session: Session, workspace_id: str) -> TurnLimits | None:
    """The workspace's budget settings and hosts for a turn, or None: one query, cached while
    no agent or workspace changes (``vigia.workspaces.settings_cache``)."""

    def load() -> TurnLimits | None:
        c = Workspace.__table__.c
        query = select(c.id, c.budget_usd, c.budget_action, c.tool_hosts).where(
            c.id == workspace_id
        )
        row = session.connection().execute(query).first()
        if row is None:
            return None
        return TurnLimits(row.id, row.budget_usd, row.budget_action, tuple(row.tool_hosts or ()))

    return get_settings_cache().lookup(("limits", workspace_id), load)
