"""Evaluation cases of an agent: create, list, replace, delete."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.agents.service import AgentRow
from vigia.errors import Conflict, Invalid, NotFound
from vigia.eval_cases.models import EvalCase
from vigia.eval_cases.schemas import CaseAssertions, DialogueMessage, EvalCaseIn, EvalCaseOut

MAX_CASES_PER_AGENT = 200
"""Every case runs on each evaluation, synchronously: keep the set a test suite, not a log."""


def require_runnable(agent: AgentRow) -> None:
    """Cases run (and export) only for agents the engine answers for: not external ones."""
    if agent.kind != "internal":
        raise Invalid(
            f"agent '{agent.slug}' is external: its replies come from elsewhere and are "
            "reviewed through the output-review API, so its cases cannot run here"
        )


def list_cases(session: Session, agent_id: str) -> list[EvalCase]:
    """The agent's cases, oldest first (the order they run and export in)."""
    query = (
        select(EvalCase)
        .where(EvalCase.agent_id == agent_id)
        .order_by(EvalCase.created_at, EvalCase.id)
    )
    return list(session.scalars(query))


def get_case(session: Session, agent_id: str, case_id: str) -> EvalCase:
    """A case of the agent; other agents' cases are simply not found."""
    row = session.get(EvalCase, case_id)
    if row is None or row.agent_id != agent_id:
        raise NotFound(f"evaluation case '{case_id}' not found")
    return row


def create_case(session: Session, workspace_id: str, agent_id: str, spec: EvalCaseIn) -> EvalCase:
    count = session.scalar(
        select(func.count()).select_from(EvalCase).where(EvalCase.agent_id == agent_id)
    )
    if (count or 0) >= MAX_CASES_PER_AGENT:
        raise Conflict(f"an agent may have at most {MAX_CASES_PER_AGENT} evaluation cases")
    row = EvalCase(workspace_id=workspace_id, agent_id=agent_id)
    _fill(row, spec)
    session.add(row)
    session.flush()
    return row


def replace_case(session: Session, row: EvalCase, spec: EvalCaseIn) -> EvalCase:
    _fill(row, spec)
    session.flush()
    return row


def delete_case(session: Session, row: EvalCase) -> None:
    session.delete(row)
    session.flush()


def _fill(row: EvalCase, spec: EvalCaseIn) -> None:
    row.name = spec.name
    row.input = spec.input
    row.history = [m.model_dump() for m in spec.history]
    row.assertions = spec.assertions.model_dump(exclude_defaults=True)


def assertions_of(row: EvalCase) -> CaseAssertions:
    return CaseAssertions.model_validate(row.assertions)


def dialogue_of(row: EvalCase) -> list[DialogueMessage]:
    """The messages before the input, then the input as the last user message."""
    history = [DialogueMessage.model_validate(m) for m in row.history]
    return [*history, DialogueMessage(role="user", content=row.input)]


def _utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every stored moment is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def case_view(row: EvalCase) -> EvalCaseOut:
    return EvalCaseOut(
        id=row.id,
        agent_id=row.agent_id,
        name=row.name,
        input=row.input,
        history=[DialogueMessage.model_validate(m) for m in row.history],
        assertions=assertions_of(row),
        created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
    )
