"""The opt-in LLM grounding judge, against a tiny OpenAI-compatible server on loopback.

The fake server's text matters here only as the judge protocol (JSON verdicts); it marks
every statement mentioning "domingo" unsupported and the rest supported.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from vigia.agents.schemas import AgentConfig, ModelChoice
from vigia.guardrails.checks import OutputContext, check_grounding
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.judge import parse_verdicts

INSTRUCTIONS = "Atendemos de lunes a viernes de 9 a 18 horas."
PARAPHRASE = "Abrimos cinco días a la semana, en horario de oficina."


class FakeJudge(BaseHTTPRequestHandler):
    status = 200
    calls: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeJudge.calls.append(body)
        if FakeJudge.status != 200:
            self.send_response(FakeJudge.status)
            self.end_headers()
            return
        user = body["messages"][-1]["content"]
        statements = re.findall(r"^(\d+)\. (.*)$", user.split("Statements:")[1], re.MULTILINE)
        verdicts = [{"n": int(n), "supported": "domingo" not in s} for n, s in statements]
        content = json.dumps({"verdicts": verdicts})
        chunk = {"choices": [{"index": 0, "delta": {"content": content}}]}
        payload = f"data: {json.dumps(chunk)}\n\ndata: [DONE]\n\n".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def judge_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeJudge)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    FakeJudge.status = 200
    FakeJudge.calls = []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def config(judge_url: str, judge: str = "llm") -> AgentConfig:
    return AgentConfig(
        instructions=INSTRUCTIONS,
        model=ModelChoice(provider="openai", name="judge-model", base_url=judge_url),
        guardrails=GuardrailsConfig(grounding_judge=judge),  # type: ignore[arg-type]
    )


def test_embedded_check_alone_rejects_the_loose_paraphrase(judge_url: str) -> None:
    verdict = check_grounding(
        [PARAPHRASE], config(judge_url, "embedded"), OutputContext(INSTRUCTIONS)
    )
    assert not verdict.passed and FakeJudge.calls == []


def test_llm_judge_decides_the_sentences_the_embedded_check_doubts(judge_url: str) -> None:
    sentences = [INSTRUCTIONS, PARAPHRASE, "También abrimos el domingo."]
    verdict = check_grounding(sentences, config(judge_url), OutputContext(INSTRUCTIONS))
    assert verdict.detail["judge"] == "llm"
    assert verdict.detail["unsupported"] == ["También abrimos el domingo."]
    assert len(FakeJudge.calls) == 1
    sent = FakeJudge.calls[0]["messages"][-1]["content"]  # type: ignore[index]
    assert INSTRUCTIONS in sent and "1. " + PARAPHRASE in sent  # only doubted sentences go


def test_judge_failure_falls_back_to_the_embedded_verdict(judge_url: str) -> None:
    FakeJudge.status = 500
    verdict = check_grounding([PARAPHRASE], config(judge_url), OutputContext(INSTRUCTIONS))
    assert verdict.detail["judge"] == "embedded" and not verdict.passed


def test_unreadable_judge_answers_are_ignored() -> None:
    assert parse_verdicts('```json\n{"verdicts": [{"n": 1, "supported": false}]}\n```', 1) == [
        False
    ]
    assert parse_verdicts("I think it is fine", 1) is None
    assert parse_verdicts('{"verdicts": [{"n": 2, "supported": true}]}', 1) is None
