"""Agents on an OpenAI-compatible upstream (a local mock server): text, usage, cost, errors."""

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat, stream_lines
from tests.conftest import Tenant
from tests.upstream_hosts import allow_upstream
from vigia.llm.mock_upstream import DEFAULT_TEXT


def _use_upstream(client: TestClient, tenant: Tenant, base_url: str, model: str) -> None:
    # The mock's canned text is not grounded in the agent's instructions: grounding off.
    patch = {
        "model": {"provider": "openai", "name": model, "base_url": base_url},
        "guardrails": {"grounding": "off"},
    }
    base = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    allow_upstream(tenant.workspace_id, base_url)
    assert client.patch(base, json=patch, headers=ADMIN).status_code == 200
    assert client.post(f"{base}/publish", headers=ADMIN).status_code == 200


def test_upstream_answer_usage_and_cost(
    client: TestClient, tenant: Tenant, mock_upstream: str
) -> None:
    _use_upstream(client, tenant, mock_upstream, "gpt-4o-mini")
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 200
    assert body["choices"][0]["message"]["content"].strip() == DEFAULT_TEXT
    assert body["usage"] == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    assert body["sherlock"]["cost_usd"] == pytest.approx((11 * 0.15 + 7 * 0.60) / 1e6)


def test_upstream_stream_arrives_by_sentences(
    client: TestClient, tenant: Tenant, mock_upstream: str
) -> None:
    _use_upstream(client, tenant, mock_upstream, "gpt-4o-mini")
    lines = stream_lines(client, tenant.production_key, tenant.agent_slug, "hola")
    assert lines[-1] == "data: [DONE]"
    contents = [line for line in lines if '"content": "' in line and '"role"' not in line]
    assert len(contents) == 2, "two sentences, two chunks"


def test_upstream_errors_are_translated(
    client: TestClient, tenant: Tenant, mock_upstream: str
) -> None:
    _use_upstream(client, tenant, mock_upstream, "fail-500")
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 502 and body == {"detail": "model provider answered HTTP 500"}
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola", stream=True)
    assert status == 502, "a failure before the first sentence is an HTTP error, not a 200 stream"
    assert body == {"detail": "model provider answered HTTP 500"}


def test_unreachable_upstream_is_a_502(client: TestClient, tenant: Tenant) -> None:
    _use_upstream(client, tenant, "http://127.0.0.1:9/v1", "gpt-4o-mini")
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 502 and body["detail"].startswith("model provider unreachable")
