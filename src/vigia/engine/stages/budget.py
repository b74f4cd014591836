"""The budget stage: this month's spend, turns in flight, and whether the workspace pauses.

The month's spend is one primary-key read of the spend ledger (``vigia.engine.spend``).

A turn whose model has a price reserves its expected cost before it runs; the reservation is
settled (deleted) in the same transaction that stores the run with its real cost. Concurrent
turns therefore see each other: a budget overshoots by at most one turn, as sequential turns
do. Reservations of turns that never settled (a client that went away) expire.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from vigia.db.base import table_of, utcnow
from vigia.engine.models import BudgetReservation
from vigia.engine.spend import month_spend
from vigia.workspaces.limits import budget_row

EXCEEDED_MESSAGE = "El servicio alcanzó su límite de uso mensual. Contactá al administrador."
RESERVATION_TTL = timedelta(minutes=15)


def month_start(now: datetime | None = None) -> datetime:
    now = now or utcnow()
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def reserved(session: Session, workspace_id: str, excluding: str | None = None) -> float:
    """USD held by the workspace's turns in flight (expired reservations do not count)."""
    query = select(func.coalesce(func.sum(BudgetReservation.amount_usd), 0.0)).where(
        BudgetReservation.workspace_id == workspace_id,
        BudgetReservation.created_at >= utcnow() - RESERVATION_TTL,
    )
    if excluding is not None:
        query = query.where(BudgetReservation.run_id != excluding)
    return float(session.scalar(query) or 0.0)


@dataclass(frozen=True)
class BudgetState:
    budget_usd: float | None
    spent_usd: float
    action: str
    reserved_usd: float = 0.0

    @property
    def exhausted(self) -> bool:
        return self.budget_usd is not None and self.spent_usd + self.reserved_usd >= self.budget_usd

    @property
    def pauses(self) -> bool:
        return self.exhausted and self.action == "pause"

    @property
    def alerts(self) -> bool:
        return self.exhausted and self.action == "alert"

    @property
    def outcome(self) -> str:
        if not self.exhausted:
            return "ok"
        return "paused" if self.pauses else "alert"

    def detail(self) -> dict[str, Any]:
        detail: dict[str, Any] = {"budget_usd": self.budget_usd, "spent_usd": self.spent_usd}
        if self.reserved_usd:
            detail["reserved_usd"] = round(self.reserved_usd, 8)
        return detail


class BudgetOwner(Protocol):
    """What the budget check reads of a workspace (an ORM object or a Core row)."""

    @property
    def id(self) -> str: ...

    @property
    def budget_usd(self) -> float | None: ...

    @property
    def budget_action(self) -> str: ...


def budget_state(session: Session, workspace: BudgetOwner) -> BudgetState:
    """The workspace's budget and this month's spend (no query when there is no budget)."""
    if workspace.budget_usd is None:
        return BudgetState(None, 0.0, workspace.budget_action)
    return BudgetState(
        workspace.budget_usd, month_spend(session, workspace.id), workspace.budget_action
    )


def reserve(
    session: Session, workspace: BudgetOwner, run_id: str, expected_usd: float
) -> BudgetState:
    """Holds ``expected_usd`` for ``run_id`` and returns the state it met.

    Call in its own write transaction: the insert comes first, so concurrent reservations of
    one workspace queue behind each other and each sees the ones committed before it. When
    the state pauses, the caller rolls the transaction back (nothing stays reserved).
    """
    session.execute(
        insert(table_of(BudgetReservation)).values(
            run_id=run_id,
            workspace_id=workspace.id,
            amount_usd=expected_usd,
            created_at=utcnow(),
        )
    )
    budget_row(session, workspace.id, lock=True)
    return BudgetState(
        workspace.budget_usd,
        month_spend(session, workspace.id),
        workspace.budget_action,
        reserved(session, workspace.id, excluding=run_id),
    )


def settle(session: Session, run_id: str) -> None:
    """Releases the reservation of ``run_id`` (its run now carries the real cost)."""
    session.execute(delete(BudgetReservation).where(BudgetReservation.run_id == run_id))
