"""The inbox without a browser: a blank reply is refused next to the field in the UI's
language and stores nothing; an operator's reply carries their name in the console, the
admin API and what the customer's channel reads (the live transcript: test_inbox_browser.py)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import ADMIN_TOKEN, Tenant
from tests.console.helpers import log_in, make_user

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def _handed_off(client: TestClient, tenant: Tenant) -> str:
    """A customer's conversation through the API, then handed to the team."""
    answer = client.post(
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
        json={"model": tenant.agent_slug, "messages": [{"role": "user", "content": "Hola"}]},
    )
    assert answer.status_code == 200, answer.text
    conversation = str(answer.json()["sherlock"]["conversation_id"])
    handed = client.post(
        f"/admin/workspaces/{tenant.workspace_id}/conversations/{conversation}/handoff",
        headers=ADMIN,
    )
    assert handed.status_code == 200, handed.text
    return conversation


def _stored(client: TestClient, tenant: Tenant, conversation: str) -> list[dict[str, Any]]:
    found = client.get(
        f"/admin/workspaces/{tenant.workspace_id}/conversations/{conversation}", headers=ADMIN
    )
    messages: list[dict[str, Any]] = found.json()["messages"]
    return messages


def test_a_blank_reply_is_refused_next_to_the_field_in_each_language(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = f"/console/w/{tenant.workspace_id}"
    before = _stored(client, tenant, conversation)
    refused = client.post(
        f"{base}/conversations/{conversation}/reply",
        data={"csrf": token, "content": "  \n\t ", "back": "inbox"},
    )
    assert refused.status_code == 422
    assert 'id="reply-error"' in refused.text
    assert "Escribí una respuesta: no puede quedar en blanco." in refused.text
    assert 'aria-describedby="reply-error"' in refused.text  # tied to the textarea
    client.post("/console/language", data={"lang": "en", "next": f"{base}/inbox", "csrf": token})
    english = client.post(
        f"{base}/conversations/{conversation}/reply", data={"csrf": token, "content": " "}
    )
    assert english.status_code == 422 and "Write a reply: it cannot be blank." in english.text
    assert _stored(client, tenant, conversation) == before


def test_the_admin_api_refuses_a_blank_operator_reply(client: TestClient, tenant: Tenant) -> None:
    conversation = _handed_off(client, tenant)
    before = _stored(client, tenant, conversation)
    refused = client.post(
        f"/admin/workspaces/{tenant.workspace_id}/conversations/{conversation}/messages",
        headers=ADMIN,
        json={"content": "   "},
    )
    assert refused.status_code == 422
    assert _stored(client, tenant, conversation) == before


def test_an_operator_reply_carries_the_operators_name_to_the_customer(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = f"/console/w/{tenant.workspace_id}"
    sent = client.post(
        f"{base}/conversations/{conversation}/reply",
        data={"csrf": token, "content": "Ya te ayudo.", "back": "inbox"},
    )
    assert sent.status_code == 200 and sent.url.path == f"{base}/inbox"
    transcript = client.get(f"{base}/conversations/{conversation}/messages").text
    assert "<strong>oscar</strong>" in transcript
    assert "<strong>Operador</strong>" not in transcript
    assert _stored(client, tenant, conversation)[-1]["author"] == "oscar"
    customer = client.get(
        f"/v1/conversations/{conversation}/messages",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    ).json()
    last = customer["messages"][-1]
    assert (last["role"], last["content"], last["author"]) == ("operator", "Ya te ayudo.", "oscar")
