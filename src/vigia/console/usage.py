"""Uso: cost and tokens per day and per agent over the last 30 days, this month's spend
against the workspace budget, and the budget with its action (pause or alert)."""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from fastapi import APIRouter, Request
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import Access, Configurer, Reader
from vigia.console.charts import BarChart, bar_chart
from vigia.console.field_errors import FieldErrors, field_errors
from vigia.console.form_limits import bounds, choices
from vigia.console.form_values import FormValues, typed
from vigia.console.numbers import format_number
from vigia.console.rendering import language_of, page
from vigia.console.responses import Form, see_other, text
from vigia.db.base import utcnow
from vigia.engine import budget_state, month_spend, usage_by_agent, usage_by_day
from vigia.http.deps import Db
from vigia.workspaces import service as workspaces
from vigia.workspaces.schemas import BudgetUpdate

router = APIRouter(prefix="/console/w/{ws}/usage", include_in_schema=False)
DAYS = 30


def _usd(value: float, lang: str) -> str:
    return "$" + format_number(value, lang, 4 if value < 1 else 2)


def _tokens(value: float, lang: str) -> str:
    return format_number(int(value), lang)


def _charts(db: Session, access: Access, lang: str) -> list[BarChart]:
    today = utcnow().date()
    days = [today - timedelta(days=n) for n in range(DAYS - 1, -1, -1)]
    since = utcnow().replace(hour=0, minute=0, second=0, microsecond=0) - timedelta(days=DAYS - 1)
    per_day = usage_by_day(db, access.workspace.id, since)
    slugs = agents.agent_slugs(db, access.workspace.id)
    per_agent = usage_by_agent(db, access.workspace.id, since)

    def daily(metric: str) -> list[tuple[str, float]]:
        return [
            (d.strftime("%d/%m"), getattr(per_day[d], metric) if d in per_day else 0.0)
            for d in days
        ]

    by_agent = [(slugs.get(row.key, row.key[:8]), row) for row in per_agent]
    usd, tokens = partial(_usd, lang=lang), partial(_tokens, lang=lang)
    return [
        bar_chart("usage.cost_per_day", daily("cost_usd"), usd),
        bar_chart("usage.tokens_per_day", daily("tokens"), tokens),
        bar_chart("usage.cost_per_agent", [(s, r.cost_usd) for s, r in by_agent], usd, 12),
        bar_chart(
            "usage.tokens_per_agent", [(s, float(r.tokens)) for s, r in by_agent], tokens, 12
        ),
    ]


def _page(
    request: Request,
    access: Access,
    db: Session,
    *,
    status: int = 200,
    errors: FieldErrors | None = None,
    values: FormValues | None = None,
) -> Response:
    """The page; a budget that was refused shows its ``errors`` next to the field, which
    keeps the posted ``values``."""
    lang = language_of(request)
    workspace = access.workspace
    budget = "" if workspace.budget_usd is None else f"{workspace.budget_usd:.2f}"
    return page(
        request,
        "usage.html",
        status=status,
        access=access,
        section="usage",
        charts=_charts(db, access, lang),
        spent=_usd(month_spend(db, workspace.id), lang),
        state=budget_state(db, workspace),
        budget_usd=workspace.budget_usd,
        action=workspace.budget_action,
        actions=choices(BudgetUpdate, "action"),
        limits={"budget_usd": bounds(BudgetUpdate, "budget_usd")},
        errors=errors or {},
        values=values or FormValues(budget_usd=budget, action=workspace.budget_action),
    )


@router.get("")
def usage_page(request: Request, access: Reader, db: Db) -> Response:
    return _page(request, access, db)


def _amount(text: str) -> float | str | None:
    """The budget field as a number (empty: no budget); text that is no number stays text."""
    if not text.strip():
        return None
    try:
        return float(text)
    except ValueError:
        return text


@router.post("/budget")
def set_budget(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """Sets the monthly budget (empty removes it) and what happens once it is spent; a
    refused value is shown again with the problem next to it."""
    try:
        update = BudgetUpdate.model_validate(
            {
                "budget_usd": _amount(text(form, "budget_usd")),
                "action": text(form, "action", "pause"),
            }
        )
    except ValidationError as error:
        errors = field_errors(error, overrides={("budget_usd", "float_type"): "budget.invalid"})
        return _page(request, access, db, status=422, errors=errors, values=typed(form))
    workspaces.set_budget(db, access.workspace, update.budget_usd, update.action)
    return see_other(f"{access.base}/usage")
