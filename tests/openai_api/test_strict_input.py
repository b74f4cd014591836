"""The chat completion body is read as its published schema types it: booleans are JSON
``true``/``false`` only, ``NaN`` and ``Infinity`` are no JSON numbers, and ``model`` names an
agent exactly as written. Each refusal is a 4xx in the OpenAI surface's shape and stores
nothing."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.stored import row_counts

TOOL: dict[str, Any] = {
    "type": "function",
    "function": {"name": "lookup", "parameters": {"type": "object"}},
}
JSON_SCHEMA: dict[str, Any] = {
    "type": "json_schema",
    "json_schema": {"name": "answer", "schema": {}},
}
NOT_BOOLEANS: dict[str, tuple[dict[str, Any], str]] = {
    "stream 1": ({"stream": 1}, "stream"),
    "stream 'true'": ({"stream": "true"}, "stream"),
    "include_usage array": (
        {"stream": True, "stream_options": {"include_usage": [1]}},
        "stream_options.include_usage",
    ),
    "include_usage 1": (
        {"stream": True, "stream_options": {"include_usage": 1}},
        "stream_options.include_usage",
    ),
    "parallel_tool_calls 0": ({"parallel_tool_calls": 0}, "parallel_tool_calls"),
    "tool strict 'yes'": (
        {"tools": [{**TOOL, "function": {**TOOL["function"], "strict": "yes"}}]},
        "tools.0.function.strict",
    ),
    "json_schema strict 1": (
        {
            "response_format": {
                **JSON_SCHEMA,
                "json_schema": {**JSON_SCHEMA["json_schema"], "strict": 1},
            }
        },
        "response_format.json_schema.strict",
    ),
}


def _chat(client: TestClient, key: str, **extra: Any) -> tuple[int, dict[str, Any]]:
    body = {"model": "asistente", "messages": [{"role": "user", "content": "hola"}], **extra}
    response = client.post(
        "/v1/chat/completions", json=body, headers={"Authorization": f"Bearer {key}"}
    )
    return response.status_code, response.json()


@pytest.mark.parametrize("case", list(NOT_BOOLEANS))
def test_a_boolean_field_takes_only_true_or_false(
    client: TestClient, tenant: Tenant, case: str
) -> None:
    extra, field = NOT_BOOLEANS[case]
    before = row_counts()
    status, body = _chat(client, tenant.production_key, **extra)
    assert status == 422
    assert body == {"detail": f"{field}: Input should be a valid boolean"}
    assert row_counts() == before


def test_true_and_false_are_still_booleans(client: TestClient, tenant: Tenant) -> None:
    status, body = _chat(client, tenant.production_key, stream=False, parallel_tool_calls=True)
    assert status == 200, body


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_non_finite_number_is_malformed_json(
    client: TestClient, tenant: Tenant, constant: str
) -> None:
    before = row_counts()
    raw = (
        f'{{"model": "asistente", "temperature": {constant}, '
        '"messages": [{"role": "user", "content": "hola"}]}'
    )
    response = client.post(
        "/v1/chat/completions",
        content=raw.encode(),
        headers={
            "Authorization": f"Bearer {tenant.production_key}",
            "Content-Type": "application/json",
        },
    )
    assert response.status_code == 422
    assert response.json() == {
        "detail": f"body: JSON decode error: {constant} is not a JSON number"
    }
    assert row_counts() == before


def test_nan_as_text_inside_a_string_is_just_text(client: TestClient, tenant: Tenant) -> None:
    status, body = _chat(
        client,
        tenant.production_key,
        messages=[{"role": "user", "content": "NaN, Infinity y -Infinity son palabras"}],
    )
    assert status == 200, body


@pytest.mark.parametrize("model", [" asistente", "asistente ", "\tasistente", " asistente@draft"])
def test_a_model_name_is_matched_exactly(client: TestClient, tenant: Tenant, model: str) -> None:
    before = row_counts()
    status, body = _chat(client, tenant.production_key, model=model)
    assert status == 404
    assert body == {"detail": f"model '{model.split('@')[0]}' not found"}
    assert row_counts() == before
    response = client.get(
        f"/v1/models/{quote(model)}", headers={"Authorization": f"Bearer {tenant.production_key}"}
    )
    assert response.status_code == 404


def test_the_exact_name_and_its_draft_suffix_still_resolve(
    client: TestClient, tenant: Tenant
) -> None:
    assert _chat(client, tenant.production_key, model="asistente")[0] == 200
    assert _chat(client, tenant.draft_key, model="asistente@draft")[0] == 200
