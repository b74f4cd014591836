"""Inputs that used to answer 500 answer 4xx in the OpenAI surface's shape and store nothing:
lone surrogates and NUL in JSON or the URL, chunked bodies past the limit, booleans where
numbers belong."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN
from tests.conftest import Tenant
from tests.stored import row_counts

SURROGATE = '"hola \\ud800 mundo"'  # JSON text: a lone high surrogate, as the issue sent it
SURROGATE_DETAIL = "String should not contain a lone surrogate (a \\ud800-\\udfff escape)"


def _chat_json(content: str, *, stream: bool = False) -> bytes:
    flag = "true" if stream else "false"
    return (
        f'{{"model": "asistente", "stream": {flag}, '
        f'"messages": [{{"role": "user", "content": {content}}}]}}'
    ).encode()


def _post_raw(client: TestClient, path: str, body: bytes, key: str) -> tuple[int, dict]:
    response = client.post(
        path,
        content=body,
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    return response.status_code, response.json()


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_lone_surrogate_in_chat_content_is_422(
    client: TestClient, tenant: Tenant, stream: bool
) -> None:
    before = row_counts()
    status, body = _post_raw(
        client, "/v1/chat/completions", _chat_json(SURROGATE, stream=stream), tenant.production_key
    )
    assert status == 422
    assert body == {"detail": f"messages.0.content: {SURROGATE_DETAIL}"}
    assert row_counts() == before


def test_lone_surrogate_in_an_ignored_field_is_422_too(client: TestClient, tenant: Tenant) -> None:
    raw = _chat_json('"hola"').replace(b'"stream"', b'"user": {"\\udc00": 1}, "stream"')
    status, body = _post_raw(client, "/v1/chat/completions", raw, tenant.production_key)
    assert status == 422
    assert body == {"detail": f"user.\\udc00: {SURROGATE_DETAIL}"}


def test_nul_in_chat_content_is_422(client: TestClient, tenant: Tenant) -> None:
    before = row_counts()
    status, body = _post_raw(
        client, "/v1/chat/completions", _chat_json('"hola \\u0000"'), tenant.production_key
    )
    assert status == 422
    assert body == {
        "detail": "messages.0.content: String should not contain a NUL character (\\u0000)"
    }
    assert row_counts() == before


def test_nul_in_the_path_or_query_is_422(client: TestClient, tenant: Tenant) -> None:
    nul = "String should not contain a NUL character (\\u0000)"
    response = client.get("/admin/workspaces/ac%00me/keys", headers=ADMIN)
    assert response.status_code == 422
    assert response.json() == {"detail": [{"loc": ["path"], "msg": nul, "type": "string_nul"}]}
    response = client.get(
        "/v1/models?x=%00", headers={"Authorization": f"Bearer {tenant.production_key}"}
    )
    assert response.status_code == 422
    assert response.json() == {"detail": f"x: {nul}"}


def test_a_surrogate_pair_is_a_character_and_is_answered(
    client: TestClient, tenant: Tenant
) -> None:
    status, body = _post_raw(
        client, "/v1/chat/completions", _chat_json('"hola \\ud83d\\ude00"'), tenant.production_key
    )
    assert status == 200, body
    assert body["choices"][0]["message"]["content"]


def _chunks(total: int, size: int = 256 * 1024) -> Iterator[bytes]:
    yield b'{"model": "asistente", "messages": [{"role": "user", "content": "'
    sent = 0
    while sent < total:
        yield b"a" * size
        sent += size
    yield b'"}]}'


def test_chunked_body_over_the_limit_is_413(client: TestClient, tenant: Tenant) -> None:
    before = row_counts()
    response = client.post(
        "/v1/chat/completions",
        content=_chunks(3 * 1024 * 1024),
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    assert "content-length" not in response.request.headers
    assert response.status_code == 413
    assert response.json() == {"detail": "request body larger than 2097152 bytes"}
    assert row_counts() == before


def test_chunked_multipart_over_the_limit_is_413(client: TestClient) -> None:
    boundary = b"vigia-test"

    def parts() -> Iterator[bytes]:
        yield b"--" + boundary + b'\r\nContent-Disposition: form-data; name="file"; '
        yield b'filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n'
        for _ in range(65):
            yield b"a" * (1024 * 1024)
        yield b"\r\n--" + boundary + b"--\r\n"

    response = client.post(
        "/admin/workspaces/acme/knowledge-bases/x/documents",
        content=parts(),
        headers={**ADMIN, "Content-Type": "multipart/form-data; boundary=vigia-test"},
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "request body larger than 67108864 bytes"}


@pytest.mark.parametrize("budget", [False, True, "5", [1]])
def test_budget_that_is_not_a_number_is_422(
    client: TestClient, tenant: Tenant, budget: object
) -> None:
    response = client.put(
        f"/admin/workspaces/{tenant.workspace_id}/budget",
        json={"budget_usd": budget},
        headers=ADMIN,
    )
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", "budget_usd"] and error["type"] == "float_type"
    workspaces = client.get("/admin/workspaces", headers=ADMIN).json()["workspaces"]
    assert [w["budget_usd"] for w in workspaces] == [None]


def test_budget_accepts_integers_and_decimals(client: TestClient, tenant: Tenant) -> None:
    url = f"/admin/workspaces/{tenant.workspace_id}/budget"
    assert client.put(url, json={"budget_usd": 5}, headers=ADMIN).json()["budget_usd"] == 5
    assert client.put(url, json={"budget_usd": 0.5}, headers=ADMIN).json()["budget_usd"] == 0.5


BOOLEAN_NUMBERS = {
    "key rpm": ("POST", "/keys", {"rpm": True}, ["body", "rpm"]),
    "agent memory_turns": ("PATCH", "/agents/asistente", {"memory_turns": True}, None),
    "agent top_k": ("PATCH", "/agents/asistente", {"top_k": False}, None),
    "agent temperature": ("PATCH", "/agents/asistente", {"model": {"temperature": True}}, None),
    "agent max_tokens": ("PATCH", "/agents/asistente", {"model": {"max_tokens": True}}, None),
    "guardrail length": (
        "PATCH",
        "/agents/asistente",
        {"guardrails": {"max_message_chars": True}},
        ["body", "guardrails", "max_message_chars"],
    ),
}


@pytest.mark.parametrize("case", list(BOOLEAN_NUMBERS))
def test_booleans_are_not_numbers_in_the_admin_api(
    client: TestClient, tenant: Tenant, case: str
) -> None:
    method, route, body, loc = BOOLEAN_NUMBERS[case]
    before = row_counts()
    agent_before = client.get(
        f"/admin/workspaces/{tenant.workspace_id}/agents/asistente", headers=ADMIN
    ).json()
    response = client.request(
        method, f"/admin/workspaces/{tenant.workspace_id}{route}", json=body, headers=ADMIN
    )
    assert response.status_code == 422, response.text
    (error,) = response.json()["detail"]
    assert error["type"] in ("int_type", "float_type")
    assert loc is None or error["loc"] == loc
    assert row_counts() == before
    agent_after = client.get(
        f"/admin/workspaces/{tenant.workspace_id}/agents/asistente", headers=ADMIN
    ).json()
    assert agent_after == agent_before


def test_review_attempt_true_is_not_attempt_1(client: TestClient, tenant: Tenant) -> None:
    before = row_counts()
    response = client.post(
        f"/api/external/v1/agents/{tenant.agent_id}/output-review",
        json={"turnKey": "t-1", "attempt": True, "message": "hola", "reply": "chau"},
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", "attempt"] and error["type"] == "int_type"
    assert row_counts() == before


def test_openapi_documents_each_surface_error_shapes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]

    def schema(path: str, method: str, status: str) -> dict:
        return paths[path][method]["responses"][status]["content"]["application/json"]["schema"]

    error_detail = {"$ref": "#/components/schemas/ErrorDetail"}
    assert schema("/v1/chat/completions", "post", "422") == error_detail
    assert schema("/v1/models", "get", "4XX") == error_detail
    assert schema("/v1/decide", "post", "4XX") == {"$ref": "#/components/schemas/DecideError"}
    validation_list = {"$ref": "#/components/schemas/HTTPValidationError"}
    assert schema("/chat", "post", "422") == {"anyOf": [validation_list, error_detail]}
