"""Usage of a workspace over time, as the console charts it: runs, tokens and cost per UTC
day and per agent (grouped in the database, whatever the number of runs), and each key's
last turn."""

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
    until: datetime | None,
    group: ColumnElement[Any] | InstrumentedAttribute[str],
) -> list[UsageTotals]:
    moment = [Run.created_at >= since] + ([] if until is None else [Run.created_at < until])
    query = (
        select(
            group,
            func.count(),
            func.coalesce(func.sum(Run.prompt_tokens + Run.completion_tokens), 0),
            func.coalesce(func.sum(Run.cost_usd), 0.0),
        )
        .where(Run.workspace_id == workspace_id, *moment)
        .group_by(group)
    )
    return [
        UsageTotals(str(key), int(runs), int(tokens), float(cost))
        for key, runs, tokens, cost in session.execute(query).all()
    ]


def usage_by_day(
    session: Session, workspace_id: str, since: datetime, until: datetime | None = None
) -> dict[date, UsageTotals]:
    """Totals per UTC day from ``since`` to before ``until`` (days without runs are absent)."""
    rows = _totals(session, workspace_id, since, until, func.date(Run.created_at))
    return {date.fromisoformat(row.key[:10]): row for row in rows}


def usage_by_agent(
    session: Session, workspace_id: str, since: datetime, until: datetime | None = None
) -> list[UsageTotals]:
    """Totals per agent id from ``since`` to before ``until``, the most expensive first; runs
    without an agent (worlds turns) count under their channel's name."""
    rows = _totals(session, workspace_id, since, until, func.coalesce(Run.agent_id, Run.channel))
    return sorted(rows, key=lambda row: (-row.cost_usd, -row.tokens, row.key))


def last_turn_by_key(session: Session, key_ids: list[str]) -> dict[str, datetime]:
    """When each key last ran a turn (``/v1/chat/completions``), for the keys that ever did
    and whose runs the retention purge has not removed (``ix_runs_key``)."""
    if not key_ids:
        return {}
    rows = session.execute(
        select(Run.key_id, func.max(Run.created_at))
        .where(Run.key_id.in_(key_ids))
        .group_by(Run.key_id)
    ).all()
    return {key: last for key, last in rows if key is not None}
