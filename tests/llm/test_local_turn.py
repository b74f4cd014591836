"""An agent turn end to end on a real language model: SmolLM2-135M in the local provider.

The agent names a registered GGUF file; the turn goes through the whole engine (guardrails,
generation, persistence) and llama.cpp writes the answer. Asserted is what the platform
owes whatever the model says: JSON that parses when the request asks for a schema (llama.cpp
constrains it by grammar), streamed deltas, the model's own token counts, cost 0, the run
and its trace stored, and one load of the file for every agent that names it.
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat
from tests.llm.local_files import SMOLLM2_FILE, local_agent, registered_smollm2, requires_local

pytestmark = [pytest.mark.local_model, requires_local]

INSTRUCTIONS = "You are the assistant of a paint shop. Answer in one short sentence."
COLOR_SCHEMA = {
    "type": "json_schema",
    "json_schema": {
        "name": "color",
        "schema": {
            "type": "object",
            "properties": {"color": {"type": "string", "maxLength": 20}},
            "required": ["color"],
            "additionalProperties": False,
        },
    },
}


def test_a_local_turn_answers_schema_json_with_usage_and_a_stored_run(
    client: TestClient,
) -> None:
    tenant = local_agent("pinturas", INSTRUCTIONS)
    status, body = chat(
        client,
        tenant.production_key,
        "asistente",
        "Name one color as JSON.",
        response_format=COLOR_SCHEMA,
    )
    assert status == 200, body
    answer = json.loads(body["choices"][0]["message"]["content"])
    assert set(answer) == {"color"} and isinstance(answer["color"], str)
    usage = body["usage"]
    assert usage["prompt_tokens"] > 20 and 0 < usage["completion_tokens"] <= 40
    assert body["sherlock"]["cost_usd"] == 0
    run = client.get(f"/admin/runs/{body['sherlock']['run_id']}", headers=ADMIN).json()
    assert run["status"] == "ok" and run["model"] == SMOLLM2_FILE
    assert run["usage"]["prompt_tokens"] == usage["prompt_tokens"]
    generation = next(s for s in run["stages"] if s["name"] == "generation")
    assert generation["outcome"] == "ok" and generation["duration_ms"] > 0


def test_a_local_turn_streams_deltas_and_usage_and_loads_the_file_once(
    client: TestClient,
) -> None:
    first = local_agent("pinturas", INSTRUCTIONS)
    second = local_agent("barnices", INSTRUCTIONS)
    body = {
        "model": "asistente",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "Which paint is good for a kitchen?"}],
    }
    for tenant in (first, second):
        headers = {"Authorization": f"Bearer {tenant.production_key}"}
        with client.stream("POST", "/v1/chat/completions", headers=headers, json=body) as r:
            assert r.status_code == 200
            lines = [line for line in r.iter_lines() if line.startswith("data: ")]
        assert lines[-1] == "data: [DONE]"
        chunks = [json.loads(line[6:]) for line in lines[:-1]]
        text = "".join(
            c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"]
        )
        assert text.strip(), "the model wrote something"
        finish = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]]
        assert finish[-1] in ("stop", "length")
        usage = chunks[-1]["usage"]
        assert usage["prompt_tokens"] > 20 and usage["completion_tokens"] > 0
    assert client.app.state.local_models.loaded == [registered_smollm2()]  # type: ignore[attr-defined]
