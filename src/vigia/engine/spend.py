"""The spend ledger: what each workspace's runs cost per month (UTC), one row per month.

``store_run`` writes a run, its stages and its cost in the caller's transaction: the cost is
added to the ``(workspace, month)`` row by one upsert (``INSERT ... ON CONFLICT DO UPDATE
SET spent_usd = spent_usd + excluded``), atomic on SQLite and PostgreSQL, so turns settling
at once never lose an increment. The budget reads the month's spend with one primary-key
lookup, whatever the number of runs. Deleting runs (retention) leaves the spend as it was.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from vigia.db.base import table_of, utcnow
from vigia.db.rows import insert_rows
from vigia.engine.models import BudgetSpend, Run, RunStage


def month_key(at: datetime) -> str:
    """The ledger's month of an instant: ``YYYY-MM`` in UTC (stored times are UTC)."""
    return f"{at.year:04d}-{at.month:02d}"


def add_spend(connection: Connection, workspace_id: str, cost_usd: float, at: datetime) -> None:
    """Adds ``cost_usd`` to the workspace's spend of the month of ``at`` (nothing when 0)."""
    if not cost_usd > 0:
        return
    table = table_of(BudgetSpend)
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(table).values(
        workspace_id=workspace_id, month=month_key(at), spent_usd=cost_usd
    )
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.workspace_id, table.c.month],
        set_={"spent_usd": table.c.spent_usd + statement.excluded.spent_usd},
    )
    connection.execute(statement)


def store_run(session: Session, run: dict[str, Any], stages: list[dict[str, Any]]) -> None:
    """Inserts the run and its stages and adds its cost to the ledger (one transaction)."""
    connection = session.connection()  # rows rendered once (vigia.db.rows): every turn
    insert_rows(connection, table_of(Run), [run])
    insert_rows(connection, table_of(RunStage), stages)
    add_spend(connection, run["workspace_id"], run["cost_usd"], run["created_at"])


def month_spend(session: Session, workspace_id: str, at: datetime | None = None) -> float:
    """USD spent by the workspace's runs in the month of ``at`` (default: this month)."""
    spent = session.connection().scalar(
        select(BudgetSpend.spent_usd).where(
            BudgetSpend.workspace_id == workspace_id,
            BudgetSpend.month == month_key(at or utcnow()),
        )
    )
    return float(spent or 0.0)
