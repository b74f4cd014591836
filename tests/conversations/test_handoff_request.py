"""A customer who asks for a person is handed to the team (per-agent setting, on by
default): the holding reply, status ``handoff``, the conversation in the inbox; the key reads
the operator's reply back. The embedded model answers (its text does not matter here)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from vigia.agents.schemas import DEFAULT_REPLIES
from vigia.conversations.person_request import asks_for_person

ASK = "Quiero hablar con una persona, por favor"


def _chat(client: TestClient, tenant: Tenant, text: str, cid: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    if cid:
        headers["X-Sherlock-Conversation"] = cid
    response = client.post(
        "/v1/chat/completions",
        json={"model": tenant.agent_slug, "messages": [{"role": "user", "content": text}]},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_asking_for_a_person_hands_off_with_the_holding_reply(
    client: TestClient, tenant: Tenant, admin_headers: dict[str, str]
) -> None:
    out = _chat(client, tenant, ASK)
    assert out["choices"][0]["message"]["content"] == DEFAULT_REPLIES["es"]["holding"]
    assert out["sherlock"]["status"] == "handoff" and out["sherlock"]["handoff"] is True
    cid = out["sherlock"]["conversation_id"]
    silent = _chat(client, tenant, "¿Hola?", cid)
    assert silent["sherlock"]["status"] == "handoff"
    base = f"/admin/workspaces/{tenant.workspace_id}/conversations/{cid}"
    reply = client.post(
        f"{base}/messages", json={"content": "Soy Ana, te ayudo."}, headers=admin_headers
    )
    assert reply.status_code == 201, reply.text
    seen = client.get(
        f"/v1/conversations/{cid}/messages",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    ).json()
    assert [(m["role"], m["content"]) for m in seen["messages"]] == [
        ("user", ASK),
        ("assistant", DEFAULT_REPLIES["es"]["holding"]),
        ("user", "¿Hola?"),
        ("operator", "Soy Ana, te ayudo."),
    ]
    assert client.post(f"{base}/release", headers=admin_headers).json()["handoff"] is False
    assert _chat(client, tenant, "¿Qué horario tienen?", cid)["sherlock"]["status"] == "ok"


def test_the_setting_off_keeps_the_agent_answering(
    client: TestClient, tenant: Tenant, admin_headers: dict[str, str]
) -> None:
    base = f"/admin/workspaces/{tenant.workspace_id}/agents/{tenant.agent_slug}"
    patched = client.patch(base, json={"handoff_on_request": False}, headers=admin_headers)
    assert patched.status_code == 200, patched.text
    assert client.post(f"{base}/publish", headers=admin_headers).status_code in (200, 201)
    out = _chat(client, tenant, ASK)
    assert out["sherlock"]["status"] != "handoff" and out["sherlock"]["handoff"] is False


def test_the_setting_is_a_boolean(
    client: TestClient, tenant: Tenant, admin_headers: dict[str, str]
) -> None:
    base = f"/admin/workspaces/{tenant.workspace_id}/agents/{tenant.agent_slug}"
    bad = client.patch(base, json={"handoff_on_request": "a veces"}, headers=admin_headers)
    assert bad.status_code == 422


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        (ASK, True),
        ("Me passa para um atendente humano, por favor", True),
        ("Can I speak to a real person?", True),
        ("¿Sos una persona o un bot?", False),
        ("Necesito una persona más para la reserva", False),
        ("I don't want to talk to anyone, just tell me the hours", False),
    ],
)
def test_the_rule_tells_requests_for_a_person_from_look_alikes(text: str, asks: bool) -> None:
    assert asks_for_person(text) is asks
