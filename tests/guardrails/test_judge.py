"""The opt-in LLM grounding judge, with a fake model in place of the agent's upstream.

The fake's text matters here only as the judge protocol (JSON verdicts): it marks every
statement mentioning "domingo" unsupported and the rest supported.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Literal

import pytest

from vigia.agents.schemas import AgentConfig
from vigia.errors import UpstreamError
from vigia.guardrails.checks import OutputContext, check_grounding
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.judge import parse_verdicts
from vigia.llm.function import FunctionModel
from vigia.llm.metered import UsageLedger
from vigia.llm.protocol import ModelRequest
from vigia.llm.registry import override_model
from vigia.llm.settings import ModelSettings

INSTRUCTIONS = "Atendemos de lunes a viernes de 9 a 18 horas."
PARAPHRASE = "Abrimos cinco días a la semana, en horario de oficina."


def judge_answer(request: ModelRequest) -> str:
    statements = re.findall(r"^(\d+)\. (.*)$", request.message.split("Statements:")[1], re.M)
    return json.dumps(
        {"verdicts": [{"n": int(n), "supported": "domingo" not in s} for n, s in statements]}
    )


@pytest.fixture
def judge() -> Iterator[FunctionModel]:
    with override_model(FunctionModel(judge_answer), name="judge-model") as model:
        assert isinstance(model, FunctionModel)
        yield model


def config(judge: Literal["embedded", "llm"] = "llm") -> AgentConfig:
    return AgentConfig(
        instructions=INSTRUCTIONS,
        model=ModelSettings(provider="openai", name="judge-model", base_url="http://judge.test"),
        guardrails=GuardrailsConfig(grounding_judge=judge),
    )


def test_embedded_check_alone_rejects_the_loose_paraphrase(judge: FunctionModel) -> None:
    verdict = check_grounding([PARAPHRASE], config("embedded"), OutputContext(INSTRUCTIONS))
    assert not verdict.passed and judge.requests == []


def test_llm_judge_decides_the_sentences_the_embedded_check_doubts(judge: FunctionModel) -> None:
    sentences = [INSTRUCTIONS, PARAPHRASE, "También abrimos el domingo."]
    verdict = check_grounding(sentences, config(), OutputContext(INSTRUCTIONS))
    assert "judge" in verdict.detail and verdict.detail["judge"] == "llm"
    assert verdict.detail["unsupported"] == ["También abrimos el domingo."]
    assert len(judge.requests) == 1
    sent = judge.requests[0].message
    assert judge.requests[0].settings.temperature == 0.0
    assert INSTRUCTIONS in sent and "1. " + PARAPHRASE in sent  # only doubted sentences go


def test_judge_failure_falls_back_to_the_embedded_verdict() -> None:
    def fail(request: ModelRequest) -> str:
        raise UpstreamError("the upstream answered 500")

    with override_model(FunctionModel(fail), name="judge-model"):
        verdict = check_grounding([PARAPHRASE], config(), OutputContext(INSTRUCTIONS))
    assert "judge" in verdict.detail and verdict.detail["judge"] == "embedded"
    assert not verdict.passed


def test_unreadable_judge_answers_are_ignored() -> None:
    assert parse_verdicts('```json\n{"verdicts": [{"n": 1, "supported": false}]}\n```', 1) == [
        False
    ]
    assert parse_verdicts("I think it is fine", 1) is None
    assert parse_verdicts('{"verdicts": [{"n": 2, "supported": true}]}', 1) is None


def test_the_judges_call_is_metered_into_the_runs_ledger(judge: FunctionModel) -> None:
    ledger = UsageLedger()
    context = OutputContext(INSTRUCTIONS, ledger=ledger)
    check_grounding([INSTRUCTIONS, PARAPHRASE], config(), context)
    (call,) = ledger.calls
    assert (call.purpose, call.model) == ("grounding_judge", "judge-model")
    assert call.usage.prompt_tokens > 0 and call.usage.completion_tokens > 0
