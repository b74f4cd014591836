"""The grounding judge on a local model: SmolLM2-135M judges through the same metering
wrapper as every model call, so the run's ledger gets its real token counts at no cost.
(What a 135M model decides is not asserted: only that it answers, and is metered.)"""

from __future__ import annotations

import pytest

from tests.llm.local_files import SMOLLM2_FILE, registered_smollm2, requires_local
from vigia.engine.cost import ledger_cost_usd
from vigia.guardrails.judge import judge_available, judge_claims
from vigia.llm.metered import UsageLedger
from vigia.llm.settings import ModelSettings

pytestmark = [pytest.mark.local_model, requires_local]


def test_the_grounding_judge_runs_on_a_local_model_metered() -> None:
    choice = ModelSettings(provider="local", path=str(registered_smollm2()))
    assert judge_available(choice)
    ledger = UsageLedger()
    verdicts = judge_claims(
        choice, ["The shop opens on Mondays."], "The shop opens Monday to Friday.", ledger
    )
    assert verdicts is None or len(verdicts) == 1
    [call] = ledger.calls
    assert call.purpose == "grounding_judge" and call.model == SMOLLM2_FILE
    assert call.usage.prompt_tokens > 20 and 0 < call.usage.completion_tokens <= 60
    assert ledger_cost_usd(ledger) == 0
