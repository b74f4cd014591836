"""Worlds turns through the engine: the workspace budget and the input guardrails before any
model, then a run (channel ``worlds``, no agent) with the turn's stages, usage and cost.

The worlds domain answers (lenses, prose); this gate, handed to its routes by the app, is
what makes each turn one of the engine's: refused turns are recorded too, so ``vigia runs
show`` and the budget see every worlds turn. The prose model's calls are metered into the
turn's ledger (``vigia.llm.metered``) and priced here like any run's.
"""

from __future__ import annotations

from typing import Any

from vigia.db.base import new_id, utcnow
from vigia.db.session import session_scope, write_scope
from vigia.engine.cost import ledger_cost_usd
from vigia.engine.spend import store_run
from vigia.engine.stages.budget import budget_state
from vigia.engine.stages.input_guardrails import InputCheck
from vigia.engine.stages.persistence import stage_rows
from vigia.engine.trace import StageRecord, Trace
from vigia.errors import Invalid, NotFound, QuotaExceeded
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.verdict_cache import check_messages
from vigia.kit.turn_status import TurnStatus
from vigia.observability import report
from vigia.workspaces.limits import budget_row
from vigia.worlds.chat.turn_log import RUN_HEADER, TurnLog

CHANNEL = "worlds"
# Length and injection with the agents' defaults (the schema takes longer messages, up to
# ``MAX_MESSAGE``: the guardrail is the policy). Analysts ask about passwords, security
# files and overrides in code: the injection check runs at its low sensitivity (the fewest
# benign messages blocked).
GUARDRAILS = GuardrailsConfig(
    injection_sensitivity="low",
    topics="off",
    grounding="off",
    personal_data="off",
)
PAUSED = (
    "this workspace's monthly budget is spent, so its worlds are paused until an admin "
    "raises the budget or the month ends"
)


def check_world_input(message: str) -> InputCheck:
    """The input guardrails (length, injection) on a worlds message."""
    return InputCheck([v for v in check_messages([message], GUARDRAILS) if not v.passed])


class WorldsGate:
    """The engine's ``TurnGate`` for worlds turns (``vigia.worlds.chat.turn_log``)."""

    def admit(self, workspace_id: str, world_id: str, message: str) -> TurnLog:
        log = TurnLog(new_id(), workspace_id, world_id)
        with session_scope() as session:
            workspace = budget_row(session, workspace_id)
            if workspace is None:
                raise NotFound(f"world {world_id!r} not found")
            with log.step("budget") as step:
                state = budget_state(session, workspace)
                step.outcome = state.outcome
                step.detail = {"world": world_id, **state.detail()}
        log.budget_alert = state.alerts
        if state.pauses:
            self._store(log, None, "budget_exceeded")
            raise QuotaExceeded(PAUSED, code="budget_exceeded", headers={RUN_HEADER: log.run_id})
        with log.step("input_guardrails") as step:
            checked = check_world_input(message)
            step.outcome, step.detail = checked.outcome, checked.detail()
        if checked.blocked:
            self._store(log, None, "blocked")
            names = ", ".join(v.name for v in checked.fired if v.blocking)
            raise Invalid(
                f"message blocked by the input guardrails ({names})",
                code="blocked",
                headers={RUN_HEADER: log.run_id},
            )
        return log

    def settle(self, log: TurnLog, conversation_id: int | None, error: str | None = None) -> None:
        self._store(log, conversation_id, "error" if error else "ok", error)

    def _store(
        self,
        log: TurnLog,
        conversation_id: int | None,
        status: TurnStatus,
        error: str | None = None,
    ) -> None:
        """Writes the run, its stages and its spend in one transaction, and reports them."""
        trace = Trace()
        for step in log.steps:
            trace.add(
                StageRecord(step.name, step.started_at, step.duration_ms, step.outcome, step.detail)
            )
        ledger = log.ledger
        run: dict[str, Any] = {
            "id": log.run_id,
            "workspace_id": log.workspace_id,
            "agent_id": None,
            "conversation_id": str(conversation_id) if conversation_id is not None else None,
            "key_id": None,
            "channel": CHANNEL,
            "env": "production",
            "version": None,
            "status": status,
            "model": ", ".join(ledger.models)[:128],
            "prompt_tokens": ledger.prompt_tokens,
            "completion_tokens": ledger.completion_tokens,
            "cost_usd": ledger_cost_usd(ledger),
            "budget_alert": log.budget_alert,
            "streamed": False,
            "duration_ms": round(log.elapsed_ms, 3),
            "error": error[:2000] if error else None,
            "trace_id": trace.trace_id,
            "created_at": utcnow(),
        }
        stages = stage_rows(log.run_id, trace.stages)
        with write_scope() as session:
            store_run(session, run, stages)
        report.turn_finished(run)
