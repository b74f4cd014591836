"""Uso: cost and tokens per day and per agent over the last 30 days, this month's spend
against the workspace budget, and the budget with its action (pause or alert)."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Form as Field
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import Access, Configurer, Reader
from vigia.console.charts import BarChart, bar_chart
from vigia.console.rendering import page
from vigia.console.responses import Checked, see_other
from vigia.db.base import utcnow
from vigia.engine import budget_state, month_spend, usage_by_agent, usage_by_day
from vigia.errors import Invalid
from vigia.http.deps import Db
from vigia.workspaces import service as workspaces

router = APIRouter(prefix="/console/w/{ws}/usage", include_in_schema=False)
DAYS = 30


def _usd(value: float) -> str:
    return f"${value:.4f}" if value < 1 else f"${value:,.2f}"


def _tokens(value: float) -> str:
    return f"{int(value):,}"


def _charts(db: Session, access: Access) -> list[BarChart]:
    today = utcnow().date()
    days = [today - timedelta(days=n) for n in range(DAYS - 1, -1, -1)]
    since = utcnow().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=DAYS - 1)
    per_day = usage_by_day(db, access.workspace.id, since)
    slugs = {a.id: a.slug for a in agents.list_agents(db, access.workspace.id)}
    per_agent = usage_by_agent(db, access.workspace.id, since)

    def daily(metric: str) -> list[tuple[str, float]]:
        return [
            (d.strftime("%d/%m"), getattr(per_day[d], metric) if d in per_day else 0.0)
            for d in days
        ]

    by_agent = [(slugs.get(row.key, row.key[:8]), row) for row in per_agent]
    return [
        bar_chart("usage.cost_per_day", daily("cost_usd"), _usd),
        bar_chart("usage.tokens_per_day", daily("tokens"), _tokens),
        bar_chart("usage.cost_per_agent", [(s, r.cost_usd) for s, r in by_agent], _usd, 12),
        bar_chart(
            "usage.tokens_per_agent", [(s, float(r.tokens)) for s, r in by_agent], _tokens, 12
        ),
    ]


@router.get("")
def usage_page(request: Request, access: Reader, db: Db) -> Response:
    state = budget_state(db, access.workspace)
    return page(
        request,
        "usage.html",
        access=access,
        section="usage",
        charts=_charts(db, access),
        spent=_usd(month_spend(db, access.workspace.id)),
        state=state,
        budget_usd=access.workspace.budget_usd,
        action=access.workspace.budget_action,
    )


@router.post("/budget", dependencies=Checked)
def set_budget(
    access: Configurer,
    db: Db,
    budget_usd: Annotated[str, Field(max_length=20)] = "",
    action: Annotated[str, Field(max_length=8)] = "pause",
) -> Response:
    """Sets the monthly budget (empty removes it) and what happens once it is spent."""
    try:
        amount = float(budget_usd) if budget_usd.strip() else None
    except ValueError:
        amount = math.nan
    if amount is not None and not math.isfinite(amount):
        raise Invalid("budget must be a number of USD")
    workspaces.set_budget(db, access.workspace, amount, action)
    return see_other(f"{access.base}/usage")
