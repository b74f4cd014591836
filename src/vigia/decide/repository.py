"""Storage of monthly decide usage; the charge is one atomic conditional UPDATE."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from vigia.db.base import utcnow
from vigia.decide.models import DecideUsage


def current_month() -> str:
    """The UTC calendar month usage is counted in, as ``YYYY-MM``."""
    return utcnow().strftime("%Y-%m")


def used(session: Session, workspace_id: str, month: str) -> int:
    """Tokens used by the workspace in ``month``."""
    value = session.scalar(
        select(DecideUsage.tokens).where(
            DecideUsage.workspace_id == workspace_id, DecideUsage.month == month
        )
    )
    return int(value or 0)


def _ensure_row(session: Session, workspace_id: str, month: str) -> None:
    dialect = session.get_bind().dialect.name
    values = {"workspace_id": workspace_id, "month": month, "tokens": 0, "updated_at": utcnow()}
    if dialect == "postgresql":
        session.execute(postgresql.insert(DecideUsage).values(**values).on_conflict_do_nothing())
    elif dialect == "sqlite":
        session.execute(sqlite.insert(DecideUsage).values(**values).on_conflict_do_nothing())
    elif session.get(DecideUsage, (workspace_id, month)) is None:  # pragma: no cover
        session.add(DecideUsage(**values))
        session.flush()


def charge(session: Session, workspace_id: str, month: str, tokens: int, quota: int) -> int | None:
    """Adds ``tokens`` if the month's total stays within ``quota``; the new total, else None.

    The check and the increment are one statement, so concurrent requests (threads,
    processes or replicas sharing the database) can never push the total past the quota.
    """
    _ensure_row(session, workspace_id, month)
    statement = (
        update(DecideUsage)
        .where(
            DecideUsage.workspace_id == workspace_id,
            DecideUsage.month == month,
            DecideUsage.tokens + tokens <= quota,
        )
        .values(tokens=DecideUsage.tokens + tokens, updated_at=utcnow())
        .returning(DecideUsage.tokens)
        .execution_options(synchronize_session=False)
    )
    total = session.execute(statement).scalar_one_or_none()
    return None if total is None else int(total)
