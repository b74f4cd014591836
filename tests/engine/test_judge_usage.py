"""The grounding judge's tokens are the run's: its call goes through the metering wrapper,
so the run's usage and cost (and the budget they count against) include it.

The agent's upstream is a fake: as the agent it answers a paraphrase the embedded check
doubts; as the judge it answers the judge protocol's JSON (every statement supported).
"""

from __future__ import annotations

import json
import re

import pytest

from tests.function_agents import MODEL, agent_on_fake, run_of
from vigia.config import get_settings
from vigia.engine.events import TurnResult
from vigia.engine.pipeline import execute, prepare
from vigia.engine.turn import TurnRequest
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.judge import JUDGE_INSTRUCTIONS
from vigia.llm.function import FunctionModel
from vigia.llm.protocol import ModelRequest
from vigia.llm.registry import override_model
from vigia.llm.tokens import count_tokens, prompt_tokens

INSTRUCTIONS = "Atendemos de lunes a viernes de 9 a 18 horas."
PARAPHRASE = "Abrimos cinco días a la semana, en horario de oficina."


def agent_or_judge(request: ModelRequest) -> str:
    if request.instructions != JUDGE_INSTRUCTIONS:
        return PARAPHRASE
    statements = re.findall(r"^(\d+)\. ", request.message.split("Statements:")[1], re.M)
    return json.dumps({"verdicts": [{"n": int(n), "supported": True} for n in statements]})


def test_the_judges_tokens_and_cost_are_in_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGIA_PRICES", json.dumps({MODEL: {"input": 1000, "output": 1000}}))
    get_settings.cache_clear()
    tenant = agent_on_fake(
        instructions=INSTRUCTIONS, guardrails=GuardrailsConfig(grounding_judge="llm")
    )
    with override_model(FunctionModel(agent_or_judge), name=MODEL) as model:
        assert isinstance(model, FunctionModel)
        request = TurnRequest(tenant.workspace_id, tenant.agent_id, "¿Qué horario tienen?")
        result = list(execute(prepare(request)))[-1]
    assert isinstance(result, TurnResult) and result.status == "ok", result
    generation, judged = model.requests
    assert judged.instructions == JUDGE_INSTRUCTIONS, "the judge was asked"
    run = run_of(result.run_id)
    prompt = prompt_tokens(generation) + prompt_tokens(judged)
    assert run.usage.prompt_tokens == prompt
    completion = count_tokens(PARAPHRASE) + count_tokens(agent_or_judge(judged))
    assert run.usage.completion_tokens == completion
    assert run.cost_usd == pytest.approx((prompt + completion) * 1000 / 1_000_000)
