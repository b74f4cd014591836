"""Uso: cost and tokens per day and per agent over a range of days (the last 30 by
default), their totals, this month's spend against the workspace budget, and the budget
with its action (pause or alert)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import Access, Configurer, Reader
from vigia.console.charts import BarChart, Measure, bar_chart
from vigia.console.dates import long_date, short_date
from vigia.console.field_errors import FieldErrors, field_errors
from vigia.console.form_limits import bounds, choices
from vigia.console.form_values import FormValues, typed
from vigia.console.numbers import format_number
from vigia.console.rendering import language_of, page
from vigia.console.responses import Form, see_other, text
from vigia.console.usage_range import QUICK_DAYS, DateRange, RangeRead, last_days, read_range
from vigia.db.base import utcnow
from vigia.engine import budget_state, month_spend, usage_by_agent, usage_by_day
from vigia.http.deps import Db
from vigia.workspaces import service as workspaces
from vigia.workspaces.schemas import BudgetUpdate

router = APIRouter(prefix="/console/w/{ws}/usage", include_in_schema=False)


def _usd(value: float, lang: str) -> str:
    return "$" + format_number(value, lang, 4 if value < 1 else 2)


def _measures(lang: str) -> tuple[Measure, Measure]:
    """USD (ticks with as many decimals as their step needs) and tokens (whole)."""
    usd = Measure(
        show=lambda value: _usd(value, lang),
        tick=lambda value, digits: "$" + format_number(value, lang, digits),
    )
    tokens = Measure(
        show=lambda value: format_number(int(value), lang),
        tick=lambda value, digits: format_number(int(value), lang),
        whole=True,
    )
    return usd, tokens


@dataclass(frozen=True)
class Totals:
    """What the range adds up to, written in the page's language."""

    start: str
    end: str
    runs: str
    tokens: str
    cost: str


def _charts(
    db: Session, access: Access, lang: str, days: DateRange
) -> tuple[list[BarChart], Totals]:
    workspace = access.workspace.id
    per_day = usage_by_day(db, workspace, days.since, days.until)
    slugs = agents.agent_slugs(db, workspace)
    per_agent = usage_by_agent(db, workspace, days.since, days.until)

    def daily(metric: str) -> list[tuple[str, float]]:
        return [
            (short_date(d, lang), float(getattr(per_day[d], metric)) if d in per_day else 0.0)
            for d in days.days
        ]

    by_agent = [(slugs.get(row.key, row.key[:8]), row) for row in per_agent]
    usd, tokens = _measures(lang)
    charts = [
        bar_chart("usage.cost_per_day", "usage.day", daily("cost_usd"), usd),
        bar_chart("usage.tokens_per_day", "usage.day", daily("tokens"), tokens),
        bar_chart(
            "usage.cost_per_agent", "usage.agent", [(s, r.cost_usd) for s, r in by_agent], usd, 12
        ),
        bar_chart(
            "usage.tokens_per_agent",
            "usage.agent",
            [(s, float(r.tokens)) for s, r in by_agent],
            tokens,
            12,
        ),
    ]
    totals = Totals(
        start=long_date(days.start, lang),
        end=long_date(days.end, lang),
        runs=format_number(sum(row.runs for row in per_day.values()), lang),
        tokens=format_number(sum(row.tokens for row in per_day.values()), lang),
        cost=_usd(sum(row.cost_usd for row in per_day.values()), lang),
    )
    return charts, totals


def _quick_ranges(base: str, chosen: DateRange, today: date) -> list[tuple[int, str, bool]]:
    """Each quick range: its days, its link, and whether the page shows it now."""
    ranges = [(n, last_days(n, today)) for n in QUICK_DAYS]
    return [
        (n, f"{base}/usage?from={r.start.isoformat()}&to={r.end.isoformat()}", r == chosen)
        for n, r in ranges
    ]


def _page(
    request: Request,
    access: Access,
    db: Session,
    *,
    status: int = 200,
    errors: FieldErrors | None = None,
    values: FormValues | None = None,
    asked: RangeRead | None = None,
) -> Response:
    """The page; a budget that was refused shows its ``errors`` next to the field, which
    keeps the posted ``values``; a refused range (``asked``) shows its own next to its
    fields, and the page the default range."""
    lang = language_of(request)
    workspace = access.workspace
    budget = "" if workspace.budget_usd is None else f"{workspace.budget_usd:.2f}"
    today = utcnow().date()
    asked = asked or read_range("", "", today)
    charts, totals = _charts(db, access, lang, asked.range)
    return page(
        request,
        "usage.html",
        status=status,
        access=access,
        section="usage",
        charts=charts,
        totals=totals,
        range_values=asked.typed,
        range_errors=asked.errors,
        quick_ranges=_quick_ranges(access.base, asked.range, today),
        today=today.isoformat(),
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
def usage_page(
    request: Request,
    access: Reader,
    db: Db,
    start: Annotated[str, Query(alias="from")] = "",
    end: Annotated[str, Query(alias="to")] = "",
) -> Response:
    """The page for the days from ``from`` to ``to``; a refused range is a 422 with the
    problem under its field."""
    asked = read_range(start, end, utcnow().date())
    return _page(request, access, db, status=422 if asked.errors else 200, asked=asked)


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
