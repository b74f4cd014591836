"""Writes a finished turn (messages, run, stages) in one transaction: all or nothing."""

from __future__ import annotations

from vigia.conversations.models import Conversation, Message
from vigia.db.session import session_scope
from vigia.engine.events import TurnResult
from vigia.engine.models import Run, RunStage
from vigia.engine.trace import Trace
from vigia.engine.turn import Turn


def _run_row(turn: Turn, model: str, duration_ms: float) -> Run:
    request = turn.request
    return Run(
        id=turn.run_id,
        workspace_id=request.workspace_id,
        agent_id=request.agent_id,
        conversation_id=turn.conversation_id,
        key_id=request.key_id,
        channel=request.channel,
        env=request.env,
        version=turn.version,
        model=model,
        streamed=request.streamed,
        duration_ms=round(duration_ms, 3),
    )


def _stage_rows(run_id: str, trace: Trace) -> list[RunStage]:
    return [
        RunStage(
            run_id=run_id,
            seq=i,
            name=s.name,
            started_at=s.started_at,
            duration_ms=round(s.duration_ms, 3),
            outcome=s.outcome,
            detail=s.detail,
        )
        for i, s in enumerate(trace.stages)
    ]


def save_turn(turn: Turn, result: TurnResult, trace: Trace, model: str, duration_ms: float) -> None:
    """Stores the conversation turn and its run. A blocked input is never stored as a message."""
    request = turn.request
    with session_scope() as session:
        if turn.new_conversation:
            session.add(
                Conversation(
                    id=turn.conversation_id,
                    workspace_id=request.workspace_id,
                    agent_id=request.agent_id,
                )
            )
            session.flush()
        run = _run_row(turn, model, duration_ms)
        run.status = result.status
        run.prompt_tokens = result.prompt_tokens
        run.completion_tokens = result.completion_tokens
        run.cost_usd = result.cost_usd
        run.budget_alert = result.budget_alert
        session.add(run)
        session.flush()
        session.add_all(_stage_rows(run.id, trace))
        input_blocked = result.status == "blocked" and any(
            s.name == "input_guardrails" and s.outcome == "blocked" for s in trace.stages
        )
        if not input_blocked:
            session.add(
                Message(
                    conversation_id=turn.conversation_id,
                    role="user",
                    content=request.message,
                    run_id=run.id,
                )
            )
        if result.content and not input_blocked:
            session.add(
                Message(
                    conversation_id=turn.conversation_id,
                    role="assistant",
                    content=result.content,
                    run_id=run.id,
                )
            )


def save_failed_run(turn: Turn, trace: Trace, model: str, duration_ms: float, error: str) -> None:
    """Records a run whose model failed; no message is stored."""
    with session_scope() as session:
        run = _run_row(turn, model, duration_ms)
        run.status = "error"
        run.error = error[:2000]
        session.add(run)
        session.flush()
        session.add_all(_stage_rows(run.id, trace))
