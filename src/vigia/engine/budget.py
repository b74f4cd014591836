"""Monthly workspace budgets: what was spent this month and whether it is exhausted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.db.base import utcnow
from vigia.engine.models import Run

EXCEEDED_MESSAGE = "El servicio alcanzó su límite de uso mensual. Contactá al administrador."


def month_start(now: datetime | None = None) -> datetime:
    now = now or utcnow()
    return now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def month_spend(session: Session, workspace_id: str) -> float:
    """USD spent by the workspace's runs since the first of this month (UTC)."""
    total = session.scalar(
        select(func.coalesce(func.sum(Run.cost_usd), 0.0)).where(
            Run.workspace_id == workspace_id, Run.created_at >= month_start()
        )
    )
    return float(total or 0.0)


@dataclass(frozen=True)
class BudgetState:
    budget_usd: float | None
    spent_usd: float
    action: str

    @property
    def exhausted(self) -> bool:
        return self.budget_usd is not None and self.spent_usd >= self.budget_usd

    @property
    def pauses(self) -> bool:
        return self.exhausted and self.action == "pause"

    @property
    def alerts(self) -> bool:
        return self.exhausted and self.action == "alert"


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
