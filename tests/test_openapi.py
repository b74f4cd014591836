"""Every route of every surface documents a typed success response in ``/openapi.json``."""

from __future__ import annotations

from typing import Any

import pytest

from vigia.app import create_app

SPEC = create_app().openapi()
OPERATIONS = [
    (method.upper(), path, operation)
    for path, item in SPEC["paths"].items()
    for method, operation in item.items()
]


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    return SPEC["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def _is_object(schema: dict[str, Any]) -> bool:
    """A real object schema: named properties, not ``{}`` or a free-form dict."""
    schema = _resolve(schema)
    if "anyOf" in schema or "oneOf" in schema:
        return all(_is_object(s) for s in schema.get("anyOf", schema.get("oneOf", [])))
    return schema.get("type") == "object" and bool(schema.get("properties"))


def _typed(status: str, response: dict[str, Any]) -> bool:
    content = response.get("content", {})
    if status == "204":
        return not content
    if not content:
        return False
    for media_type, body in content.items():
        if media_type == "text/event-stream":
            data = body.get("itemSchema", {}).get("properties", {}).get("data", {})
            if not _is_object(data.get("contentSchema", {})):
                return False
        elif not _is_object(body.get("schema", {})):
            return False
    return True


def test_the_document_lists_every_surface() -> None:
    prefixes = {"/v1/", "/admin/", "/api/external/", "/chat", "/conversations", "/personal/"}
    assert all(any(path.startswith(p) for path in SPEC["paths"]) for p in prefixes)


@pytest.mark.parametrize(
    ("method", "path", "operation"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS]
)
def test_operation_has_a_typed_success_response(
    method: str, path: str, operation: dict[str, Any]
) -> None:
    successes = {s: r for s, r in operation["responses"].items() if s.startswith("2")}
    assert successes, f"{method} {path} documents no success response"
    untyped = [s for s, r in successes.items() if not _typed(s, r)]
    assert not untyped, f"{method} {path}: untyped success response(s) {untyped}"


def test_chat_completions_documents_json_and_event_stream() -> None:
    content = SPEC["paths"]["/v1/chat/completions"]["post"]["responses"]["200"]["content"]
    completion = _resolve(content["application/json"]["schema"])
    assert completion["title"] == "ChatCompletion" and "sherlock" in completion["properties"]
    chunk = content["text/event-stream"]["itemSchema"]["properties"]["data"]["contentSchema"]
    assert chunk["title"] == "ChatCompletionChunk" and "sherlock" in chunk["properties"]
    sherlock = _resolve(completion["properties"]["sherlock"])
    assert sherlock["properties"]["version"] == {"title": "Version", "type": "integer"}


def test_worlds_stream_documents_its_event_types() -> None:
    content = SPEC["paths"]["/chat/stream"]["get"]["responses"]["200"]["content"]
    assert list(content) == ["text/event-stream"]
    events = content["text/event-stream"]["itemSchema"]["properties"]["data"]["contentSchema"]
    types = {e["properties"]["type"]["const"] for e in events["anyOf"]}
    assert types == {"node", "answer_delta", "answer", "error"}


def test_timestamps_are_documented_as_date_time() -> None:
    created_at = SPEC["components"]["schemas"]["WorkspaceOut"]["properties"]["created_at"]
    assert created_at["type"] == "string" and created_at["format"] == "date-time"


def test_every_operation_documents_the_busy_503_with_retry_after() -> None:
    """Pool timeouts and full write queues answer 503 + Retry-After on any route."""
    missing = [f"{m} {p}" for m, p, op in OPERATIONS if "503" not in op["responses"]]
    assert not missing
    busy = SPEC["paths"]["/v1/chat/completions"]["post"]["responses"]["503"]
    assert busy["headers"]["Retry-After"]["schema"]["type"] == "integer"
    assert _is_object(busy["content"]["application/json"]["schema"])
