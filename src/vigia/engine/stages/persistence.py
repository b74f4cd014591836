"""The persistence stage: a finished turn (messages, run, stages) in one transaction.

Rows rendered once (``vigia.db.rows``), not the ORM unit of work: this runs on every turn.
A turn that only adds rows (the usual one) writes them on the DBAPI connection itself
(``vigia.db.driver_write``); one that also hands the conversation off or settles a budget
reservation uses a ``write_scope`` session for those updates. The run's cost goes into the
spend ledger in the same transaction.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy.orm import Session

from vigia.conversations import service as conversations
from vigia.db.base import utcnow
from vigia.db.driver_write import driver_write
from vigia.db.rows import RowSink
from vigia.db.session import write_scope
from vigia.engine.events import TurnResult
from vigia.engine.spend import store_run
from vigia.engine.stages.budget import settle
from vigia.engine.trace import StageRecord
from vigia.engine.turn import Turn
from vigia.llm.protocol import ChatMessage
from vigia.observability import report


def _run_values(turn: Turn, model: str) -> dict[str, Any]:
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
        "duration_ms": round(turn.elapsed_ms, 3),
        "status": "ok",
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cost_usd": 0.0,
        "budget_alert": False,
        "error": None,
        "trace_id": turn.trace.trace_id,
        "created_at": utcnow(),
    }


def stage_rows(run_id: str, stages: list[StageRecord]) -> list[dict[str, Any]]:
    """The ``run_stages`` rows of a run's stages, in order."""
    return [
        {
            "run_id": run_id,
            "seq": i,
            "name": s.name,
            "started_at": s.started_at,
            "duration_ms": round(s.duration_ms, 3),
            "outcome": s.outcome,
            "detail": s.detail,
        }
        for i, s in enumerate(stages)
    ]


def _write_run(target: Session | RowSink, turn: Turn, run: dict[str, Any]) -> None:
    store_run(target, run, stage_rows(run["id"], turn.trace.stages))
    if turn.reserved_usd:
        assert isinstance(target, Session)  # _transaction gave a session
        settle(target, turn.run_id)


def _transaction(turn: Turn) -> AbstractContextManager[Session | RowSink]:
    """The turn's write transaction: a session when it updates rows, else the driver's."""
    if turn.hands_off or turn.reserved_usd:
        return write_scope()
    return driver_write()


def _messages(turn: Turn, result: TurnResult) -> list[ChatMessage]:
    """What the conversation gains, in order: the user's message and what the client sent
    after it (unless already stored), the engine's tool calls and results, the answer (or
    the client tool calls the turn ends with)."""
    messages = [ChatMessage("user", turn.message)] if turn.unsaved is None else list(turn.unsaved)
    messages += turn.produced
    if result.content or result.tool_calls:
        messages.append(ChatMessage("assistant", result.content, tuple(result.tool_calls)))
    return messages


def save_turn(turn: Turn, result: TurnResult, model: str) -> None:
    """Stores the conversation turn and its run. A message the input guardrails blocked is
    stored too, with the refusal it got, both marked (never model input)."""
    request = turn.request
    with _transaction(turn) as target:
        run = _run_values(turn, model)
        run.update(
            status=result.status,
            prompt_tokens=result.prompt_tokens,
            completion_tokens=result.completion_tokens,
            cost_usd=result.cost_usd,
            budget_alert=result.budget_alert,
        )
        opened = (request.workspace_id, request.agent_id) if turn.new_conversation else None
        conversations.record_exchange(
            target,
            turn.conversation_id,
            _messages(turn, result),
            turn.run_id,
            open_for=opened,
            channel=request.channel,
            marks=turn.input_marks,
        )
        if turn.hands_off:
            assert isinstance(target, Session)  # _transaction gave a session
            conversations.hand_off(target, turn.conversation_id)
        _write_run(target, turn, run)
    report.turn_finished(run)


def save_failed_run(turn: Turn, model: str, error: str) -> None:
    """Records a run whose model failed; no message is stored."""
    with _transaction(turn) as target:
        run = _run_values(turn, model)
        run.update(status="error", error=error[:2000])
        _write_run(target, turn, run)
    report.turn_finished(run)


def release_reservation(turn: Turn) -> None:
    """Drops the turn's budget reservation: a turn abandoned before its end stores nothing."""
    if turn.reserved_usd:
        with write_scope() as session:
            settle(session, turn.run_id)
