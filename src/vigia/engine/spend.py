"""The spend ledger: what each workspace's runs cost per month (UTC), one row per month.

``store_run`` writes a run, its stages and its cost in the caller's transaction: the cost is
added to the ``(workspace, month)`` row by one upsert (``INSERT ... ON CONFLICT DO UPDATE
SET spent_usd = spent_usd + excluded``), atomic on SQLite and PostgreSQL, so turns settling
at once never lose an increment. The budget reads the month's spend with one primary-key
lookup, whatever the number of runs. Deleting runs (retention) leaves the spend as it was.
"""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from vigia.db.base import table_of, utcnow
from vigia.db.rows import RowSink, insert_rows, sink_of
from vigia.engine.models import BudgetSpend, Run, RunStage


def month_key(at: datetime) -> str:
    """The ledger's month of an instant: ``YYYY-MM`` in UTC (stored times are UTC)."""
    return f"{at.year:04d}-{at.month:02d}"


@lru_cache(maxsize=4)
def _upsert(dialect: Dialect) -> tuple[str, tuple[str, ...], bool]:
    """The ledger's upsert for ``dialect``: its SQL, parameter names in the driver's order,
    and whether they are positional."""
    table = table_of(BudgetSpend)
    dialects = postgresql if dialect.name == "postgresql" else sqlite
    statement = dialects.insert(table).values(
        workspace_id=bindparam("workspace_id"),
        month=bindparam("month"),
        spent_usd=bindparam("spent_usd"),
    )
    statement = statement.on_conflict_do_update(
        index_elements=[table.c.workspace_id, table.c.month],
        set_={"spent_usd": table.c.spent_usd + statement.excluded.spent_usd},
    )
    compiled = statement.compile(dialect=dialect)
    keys = tuple(compiled.positiontup or compiled.binds)
    return compiled.string, keys, bool(compiled.positional)


def add_spend(connection: RowSink, workspace_id: str, cost_usd: float, at: datetime) -> None:
    """Adds ``cost_usd`` to the workspace's spend of the month of ``at`` (nothing when 0)."""
    if not cost_usd > 0:
        return
    sql, keys, positional = _upsert(connection.dialect)
    values = {"workspace_id": workspace_id, "month": month_key(at), "spent_usd": cost_usd}
    connection.exec_driver_sql(
        sql, tuple(values[k] for k in keys) if positional else {k: values[k] for k in keys}
    )


def store_run(target: Session | RowSink, run: dict[str, Any], stages: list[dict[str, Any]]) -> None:
    """Inserts the run and its stages and adds its cost to the ledger (one transaction)."""
    connection = sink_of(target)  # rows rendered once (vigia.db.rows): every turn
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
