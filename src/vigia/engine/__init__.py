"""The pipeline every agent turn runs, whatever surface it comes from.

This is the engine's public API: surfaces import from ``vigia.engine`` only (an
import-linter contract checks it), except the run tables of ``vigia.engine.models``, which
any module may read (docs/architecture.md); the stages and the other modules are its own.
"""

from vigia.engine.events import ClientToolCalls, EngineEvent, TextDelta, TurnResult
from vigia.engine.pipeline import execute, prepare
from vigia.engine.runs import run_view
from vigia.engine.schemas import RunOut, TokenUsage
from vigia.engine.spend import month_spend
from vigia.engine.stages.budget import BudgetState, budget_state, month_start
from vigia.engine.turn import TurnRequest
from vigia.engine.usage import last_turn_by_key, usage_by_agent, usage_by_day
from vigia.engine.worlds import WorldsGate

__all__ = [
    "BudgetState",
    "ClientToolCalls",
    "EngineEvent",
    "RunOut",
    "TextDelta",
    "TokenUsage",
    "TurnRequest",
    "TurnResult",
    "WorldsGate",
    "budget_state",
    "execute",
    "last_turn_by_key",
    "month_spend",
    "month_start",
    "prepare",
    "run_view",
    "usage_by_agent",
    "usage_by_day",
]
