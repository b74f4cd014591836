"""Usage of a workspace over time, as the console charts it: runs, tokens and cost per UTC
day and per agent (grouped in the database, whatever the number of runs)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from vigia.engine.models import Run


@dataclass(frozen=True)
class UsageTotals:
    """Runs, tokens and USD of one group (a day or an agent)."""

    key: str
    runs: int
    tokens: int
    cost_usd: float


def _totals(
    session: Session,
    workspace_id: str,
    since: datetime,
    group: ColumnElement[Any] | InstrumentedAttribute[str],
) -> list[UsageTotals]:
    query = (
        select(
            group,
            func.count(),
            func.coalesce(func.sum(Run.prompt_tokens + Run.completion_tokens), 0),
            func.coalesce(func.sum(Run.cost_usd), 0.0),
        )
        .where(Run.workspace_id == workspace_id, Run.created_at >= since)
        .group_by(group)
    )
    return [
        UsageTotals(str(key), int(runs), int(tokens), float(cost))
        for key, runs, tokens, cost in session.execute(query).all()
    ]


def usage_by_day(session: Session, workspace_id: str, since: datetime) -> dict[date, UsageTotals]:
    """Totals per UTC day since ``since`` (days without runs are absent)."""
    rows = _totals(session, workspace_id, since, func.date(Run.created_at))
    return {date.fromisoformat(row.key[:10]): row for row in rows}


def usage_by_agent(session: Session, workspace_id: str, since: datetime) -> list[UsageTotals]:
    """Totals per agent id since ``since``, the most expensive first; runs without an agent
    (worlds turns) count under their channel's name."""
    rows = _totals(session, workspace_id, since, func.coalesce(Run.agent_id, Run.channel))
    return sorted(rows, key=lambda row: (-row.cost_usd, -row.tokens, row.key))
