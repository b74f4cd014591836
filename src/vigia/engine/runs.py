"""Reading run traces back (admin API and ``vigia runs show``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.engine.models import Run, RunStage
from vigia.engine.schemas import RunOut, RunStageOut, TokenUsage
from vigia.errors import NotFound


def run_view(session: Session, run_id: str, workspace_id: str | None = None) -> RunOut:
    """A run with its stages in order; another workspace's run is not found."""
    run = session.get(Run, run_id) if len(run_id) <= 64 else None
    if run is None or (workspace_id is not None and run.workspace_id != workspace_id):
        raise NotFound("run not found")
    stages = session.scalars(
        select(RunStage).where(RunStage.run_id == run.id).order_by(RunStage.seq)
    ).all()
    return RunOut(
        id=run.id,
        workspace_id=run.workspace_id,
        agent_id=run.agent_id,
        conversation_id=run.conversation_id,
        channel=run.channel,
        env=run.env,
        version=run.version,
        status=run.status,
        model=run.model,
        streamed=run.streamed,
        usage=TokenUsage.of(run.prompt_tokens, run.completion_tokens),
        cost_usd=run.cost_usd,
        budget_alert=run.budget_alert,
        duration_ms=run.duration_ms,
        error=run.error,
        trace_id=run.trace_id,
        created_at=run.created_at,
        stages=[RunStageOut.model_validate(s) for s in stages],
    )
