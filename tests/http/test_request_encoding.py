"""JSON bodies in UTF-16 and UTF-32 (which ``json.loads`` reads, so every route did) are
decoded once and checked as text: a lone surrogate or NUL is a 422 naming the field on chat
(JSON and SSE), decisions, output review and the admin API, and nothing is stored; the same
bodies without them are answered as their UTF-8 twins. Bytes in no JSON encoding are a 400.
Run on PostgreSQL too (``scripts/with-postgres``), where a stored NUL was a 500."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN
from tests.conftest import Tenant, make_tenant
from tests.decide.helpers import HashEmbedder
from tests.stored import row_counts
from vigia.decide import inference
from vigia.decide.encoder import TextEncoder

ENCODINGS = ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "utf-16"]  # utf-16: with BOM
SURROGATE = "String should not contain a lone surrogate (a \\ud800-\\udfff escape)"
NUL = "String should not contain a NUL character (\\u0000)"
ESCAPES = {
    "surrogate": ("\\ud800", SURROGATE, "string_unicode"),
    "nul": ("\\u0000", NUL, "string_nul"),
}


def _post(client: TestClient, path: str, text: str, encoding: str, **headers: str) -> Any:
    return client.post(
        path,
        content=text.encode(encoding),
        headers={"Content-Type": "application/json", **headers},
    )


def _chat(content: str, *, stream: bool = False) -> str:
    flag = "true" if stream else "false"
    return (
        f'{{"model": "asistente", "stream": {flag}, '
        f'"messages": [{{"role": "user", "content": "{content}"}}]}}'
    )


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize("escape", list(ESCAPES))
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_chat_in_utf16_or_utf32_with_a_surrogate_or_nul_is_422(
    client: TestClient, tenant: Tenant, encoding: str, escape: str, stream: bool
) -> None:
    spelled, message, _ = ESCAPES[escape]
    before = row_counts()
    response = _post(
        client,
        "/v1/chat/completions",
        _chat(f"hola {spelled} mundo", stream=stream),
        encoding,
        Authorization=f"Bearer {tenant.production_key}",
    )
    assert response.status_code == 422, response.text
    assert response.json() == {"detail": f"messages.0.content: {message}"}
    assert row_counts() == before


def test_a_raw_lone_surrogate_in_utf16_is_422(client: TestClient, tenant: Tenant) -> None:
    head, tail = _chat("hola X").encode("utf-16-le").split("X".encode("utf-16-le"))
    before = row_counts()
    response = client.post(
        "/v1/chat/completions",
        content=head + b"\x00\xd8" + tail,  # the code unit D800 alone
        headers={
            "Authorization": f"Bearer {tenant.production_key}",
            "Content-Type": "application/json",
        },
    )
    assert response.status_code == 422
    assert response.json() == {"detail": f"messages.0.content: {SURROGATE}"}
    assert row_counts() == before


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-be", "utf-16"])
def test_a_clean_utf16_or_utf32_chat_is_answered_like_utf8(
    client: TestClient, tenant: Tenant, encoding: str
) -> None:
    response = _post(
        client,
        "/v1/chat/completions",
        _chat("¿Qué horario tienen? 😀"),
        encoding,
        Authorization=f"Bearer {tenant.production_key}",
    )
    assert response.status_code == 200, response.text
    assert response.json()["choices"][0]["message"]["content"]


@pytest.fixture
def fake_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decisions would run with a fake encoder (the refusal comes before any)."""
    encoder = TextEncoder({"use": HashEmbedder(), "e5": HashEmbedder()})
    monkeypatch.setattr(inference, "get_text_encoder", lambda names: encoder)


@pytest.mark.usefixtures("fake_encoder")
@pytest.mark.parametrize("escape", list(ESCAPES))
@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-be"])
def test_decide_in_utf16_or_utf32_with_a_surrogate_or_nul_is_422(
    client: TestClient, tenant: Tenant, encoding: str, escape: str
) -> None:
    spelled, message, kind = ESCAPES[escape]
    body = (
        f'{{"state": {{"mensaje": "me cobraron dos veces {spelled}"}}, '
        '"questions": {"reembolso": {"type": "binary", "ask": "¿Pide un reembolso?"}}}'
    )
    before = row_counts()
    response = _post(
        client, "/v1/decide", body, encoding, Authorization=f"Bearer {tenant.production_key}"
    )
    assert response.status_code == 422, response.text
    assert response.json() == {
        "detail": [{"loc": ["body", "state", "mensaje"], "msg": message, "type": kind}]
    }
    assert row_counts() == before


@pytest.mark.parametrize("escape", list(ESCAPES))
def test_review_turn_key_in_utf16_with_a_surrogate_or_nul_is_422(
    client: TestClient, escape: str
) -> None:
    external = make_tenant(name="tienda", slug="bot-externo", kind="external")
    spelled, message, kind = ESCAPES[escape]
    body = (
        f'{{"turnKey": "msg-{spelled}", "attempt": 1, "message": "¿Entregan?", '
        '"reply": "Atendemos de lunes a viernes."}'
    )
    before = row_counts()
    response = _post(
        client,
        f"/api/external/v1/agents/{external.agent_id}/output-review",
        body,
        "utf-16-le",
        Authorization=f"Bearer {external.production_key}",
    )
    assert response.status_code == 422, response.text
    assert response.json() == {
        "detail": [{"loc": ["body", "turnKey"], "msg": message, "type": kind}]
    }
    assert row_counts() == before


@pytest.mark.parametrize("encoding", ["utf-32-le", "utf-16-be"])
def test_workspace_name_in_utf32_or_utf16_with_nul_is_422(
    client: TestClient, encoding: str
) -> None:
    before = row_counts()
    response = _post(client, "/admin/workspaces", '{"name": "ac\\u0000me"}', encoding, **ADMIN)
    assert response.status_code == 422, response.text
    assert response.json() == {
        "detail": [{"loc": ["body", "name"], "msg": NUL, "type": "string_nul"}]
    }
    assert row_counts() == before
    created = _post(client, "/admin/workspaces", '{"name": "acmé"}', encoding, **ADMIN)
    assert created.status_code == 201, created.text
    assert created.json()["name"] == "acmé"


def test_bytes_in_no_json_encoding_are_400(client: TestClient, tenant: Tenant) -> None:
    before = row_counts()
    response = client.post(
        "/v1/chat/completions",
        content=_chat("hola \xff").encode("latin-1"),
        headers={
            "Authorization": f"Bearer {tenant.production_key}",
            "Content-Type": "application/json",
        },
    )
    assert response.status_code == 400
    assert response.json() == {"detail": "request body is not JSON text in UTF-8, UTF-16 or UTF-32"}
    assert row_counts() == before
