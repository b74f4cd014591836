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


def _base(tenant: Tenant) -> str:
    return f"/console/w/{tenant.workspace_id}"


def _say(client: TestClient, tenant: Tenant, conversation: str, text: str) -> None:
    """The customer writes again in the conversation (in handoff: no agent reply)."""
    said = client.post(
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
        json={
            "model": tenant.agent_slug,
            "messages": [{"role": "user", "content": text}],
            "conversation_id": conversation,
        },
    )
    assert said.status_code == 200, said.text


def test_taking_a_conversation_names_its_holder_and_releasing_frees_it(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = _base(tenant)
    before = client.get(f"{base}/inbox?c={conversation}").text
    assert "sin asignar" in before and ">Tomar</button>" in before
    taken = client.post(f"{base}/conversations/{conversation}/handoff", data={"csrf": token})
    assert taken.status_code == 200 and taken.url.path == f"{base}/inbox"
    page = client.get(f"{base}/inbox?c={conversation}").text
    assert "Atiende: <strong>oscar</strong>" in page  # beside the open conversation
    assert ">Tomar</button>" not in page
    listed = client.get(f"{base}/inbox/items").text
    assert '<span data-role="holder">Atiende: oscar</span>' in listed
    released = client.post(
        f"{base}/conversations/{conversation}/release", data={"csrf": token, "back": "inbox"}
    )
    assert released.status_code == 200
    assert released.url.params["released"] == conversation
    assert "Conversación devuelta al agente: él responde los próximos mensajes." in released.text
    assert "oscar" not in client.get(f"{base}/inbox/items").text
    stored = client.get(
        f"/admin/workspaces/{tenant.workspace_id}/conversations/{conversation}", headers=ADMIN
    ).json()
    assert stored["handoff"] is False
    again = client.get(f"{base}/conversations/{conversation}").text
    assert "Atiende" not in again  # nobody holds it once it is back with the agent


def test_the_release_button_asks_for_confirmation_and_the_page_says_where_it_went(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = _base(tenant)
    page = client.get(f"{base}/conversations/{conversation}").text
    assert 'data-confirm="¿Devolver la conversación al agente? Él responderá' in page
    released = client.post(f"{base}/conversations/{conversation}/release", data={"csrf": token})
    assert released.url.path == f"{base}/conversations/{conversation}"
    assert "Conversación devuelta al agente" in released.text


def test_another_operators_reply_or_take_is_refused_while_someone_holds_it(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    make_user("olga", tenant.workspace_id, "operator")
    base = _base(tenant)
    token = log_in(client, "oscar")
    client.post(f"{base}/conversations/{conversation}/handoff", data={"csrf": token})
    before = _stored(client, tenant, conversation)
    with TestClient(client.app) as other:
        olga = log_in(other, "olga")
        refused = other.post(
            f"{base}/conversations/{conversation}/reply",
            data={"csrf": olga, "content": "Yo te atiendo.", "back": "inbox"},
        )
        assert refused.status_code == 409
        assert "Otra persona atiende esta conversación; no se guardó tu respuesta." in refused.text
        assert 'aria-describedby="reply-error"' in refused.text
        taken = other.post(f"{base}/conversations/{conversation}/handoff", data={"csrf": olga})
        assert taken.status_code == 409
    assert _stored(client, tenant, conversation) == before
    assert "Atiende: oscar" in client.get(f"{base}/inbox/items").text


def test_a_reply_to_a_conversation_nobody_holds_takes_it(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = _base(tenant)
    client.post(
        f"{base}/conversations/{conversation}/reply",
        data={"csrf": token, "content": "Hola, soy Oscar.", "back": "inbox"},
    )
    assert "Atiende: oscar" in client.get(f"{base}/inbox/items").text


def test_the_inbox_counts_unread_customer_messages_and_the_wait(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _handed_off(client, tenant)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = _base(tenant)
    first = client.get(f"{base}/inbox/items").text
    assert '<span class="badge" data-role="unread">1 sin leer</span>' in first
    assert '<span data-role="waiting">espera 0 min</span>' in first
    client.post(
        f"{base}/conversations/{conversation}/reply",
        data={"csrf": token, "content": "Ya te ayudo.", "back": "inbox"},
    )
    answered = client.get(f"{base}/inbox/items").text
    assert 'data-role="unread"' not in answered and 'data-role="waiting"' not in answered
    _say(client, tenant, conversation, "¿Sigue ahí?")
    _say(client, tenant, conversation, "¿Hola?")
    waiting = client.get(f"{base}/inbox/items").text
    assert '<span class="badge" data-role="unread">2 sin leer</span>' in waiting
    assert 'data-role="waiting"' in waiting
