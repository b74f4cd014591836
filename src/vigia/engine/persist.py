"""Writes a finished turn (messages, run, stages) in one transaction: all or nothing.

Core ``INSERT``s (not the ORM unit of work): this runs on every turn.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.orm import Session

from vigia.conversations.models import Conversation, Message
from vigia.db.base import Base, utcnow
from vigia.db.session import session_scope
from vigia.engine.events import TurnResult
from vigia.engine.models import Run, RunStage
from vigia.engine.trace import Trace
from vigia.engine.turn import Turn


def _table(model: type[Base]) -> Table:
    table = model.__table__
    assert isinstance(table, Table)
    return table


def _run_values(turn: Turn, model: str, duration_ms: float) -> dict[str, Any]:
    request = turn.request
    return {
        "id": turn.run_id,
        "workspace_id": request.workspace_id,
        "agent_id": request.agent_id,
        "conversation_id": turn.conversation_id,
        "key_id": request.key_id,
        "channel": request.channel,
        "env": request.env,
        "version": turn.version,
        "model": model,
        "streamed": request.streamed,
        "duration_ms": round(duration_ms, 3),
        "status": "ok",
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cost_usd": 0.0,
        "budget_alert": False,
        "error": None,
        "created_at": utcnow(),
    }


def _write_run(session: Session, run: dict[str, Any], trace: Trace) -> None:
    session.connection().execute(insert(_table(Run)), [run])
    stages = [
        {
            "run_id": run["id"],
            "seq": i,
            "name": s.name,
            "started_at": s.started_at,
            "duration_ms": round(s.duration_ms, 3),
            "outcome": s.outcome,
            "detail": s.detail,
        }
        for i, s in enumerate(trace.stages)
    ]
    if stages:
        session.connection().execute(insert(_table(RunStage)), stages)


def save_turn(turn: Turn, result: TurnResult, trace: Trace, model: str, duration_ms: float) -> None:
    """Stores the conversation turn and its run. A blocked input is never stored as a message."""
    request = turn.request
    now = utcnow()
    with session_scope() as session:
        if turn.new_conversation:
            session.connection().execute(
                insert(_table(Conversation)),
                [
                    {
                        "id": turn.conversation_id,
                        "workspace_id": request.workspace_id,
                        "agent_id": request.agent_id,
                        "handoff": False,
                        "created_at": now,
                        "updated_at": now,
                    }
                ],
            )
        run = _run_values(turn, model, duration_ms)
        run.update(
            status=result.status,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            cost_usd=result.cost_usd,
            budget_alert=result.budget_alert,
        )
        _write_run(session, run, trace)
        input_blocked = result.status == "blocked" and any(
            s.name == "input_guardrails" and s.outcome == "blocked" for s in trace.stages
        )
        if input_blocked:
            return
        messages = [("user", request.message)]
        if result.content:
            messages.append(("assistant", result.content))
        session.connection().execute(
            insert(_table(Message)),
            [
                {
                    "conversation_id": turn.conversation_id,
                    "role": role,
                    "content": content,
                    "run_id": turn.run_id,
                    "created_at": now,
                }
                for role, content in messages
            ],
        )


def save_failed_run(turn: Turn, trace: Trace, model: str, duration_ms: float, error: str) -> None:
    """Records a run whose model failed; no message is stored."""
    with session_scope() as session:
        run = _run_values(turn, model, duration_ms)
        run.update(status="error", error=error[:2000])
        _write_run(session, run, trace)
