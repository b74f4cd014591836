"""An external bot's own thread ids: reviews open and fill its conversation, ``hold`` hands it
to the team, the bot reads the operator's reply with its key, and release gives it back.

Every step after the tenant's setup is an HTTP call (review API, admin API, console, the
key's ``GET /v1/conversations/{id}/messages``)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Tenant, make_tenant
from tests.console.helpers import log_in, make_user
from tests.review.test_output_review import GRAVE, GROUNDED, INSTRUCTIONS, body, url

BOT_THREAD = "wa-5491122334455"  # the bot's own conversation id


def _external() -> Tenant:
    return make_tenant(
        name="tienda", slug="bot-externo", instructions=INSTRUCTIONS, kind="external"
    )


def _review(client: TestClient, tenant: Tenant, payload: dict[str, Any]) -> Any:
    response = client.post(
        url(tenant.agent_id),
        json=payload,
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    assert response.status_code == 200, response.text
    return response.json()


def _conversation(client: TestClient, tenant: Tenant, admin: dict[str, str], cid: str) -> Any:
    response = client.get(
        f"/admin/workspaces/{tenant.workspace_id}/conversations/{cid}", headers=admin
    )
    assert response.status_code == 200, response.text
    return response.json()


def _read_back(client: TestClient, tenant: Tenant, cid: str) -> Any:
    response = client.get(
        f"/v1/conversations/{cid}/messages",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_bot_thread_review_hold_operator_reply_and_release(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    bot = _external()
    first = _review(client, bot, body(GRAVE, threadId=BOT_THREAD))
    assert first["action"] == "retry"
    thread = _conversation(client, bot, admin_headers, BOT_THREAD)
    assert thread["external_id"] == BOT_THREAD and thread["id"] != BOT_THREAD
    assert thread["agent_id"] == bot.agent_id and not thread["handoff"]
    reviews = [json.loads(m["content"]) for m in thread["messages"] if m["role"] == "review"]
    assert [r["reviewId"] for r in reviews] == [first["reviewId"]]

    held = _review(client, bot, body(GRAVE, attempt=2, threadId=BOT_THREAD))
    assert held["action"] == "hold" and held["holdingMessage"]
    thread = _conversation(client, bot, admin_headers, thread["id"])
    assert thread["handoff"]
    assert thread["messages"][-1] == {**thread["messages"][-1], "role": "assistant"}
    assert thread["messages"][-1]["content"] == held["holdingMessage"]

    make_user("ana", bot.workspace_id, "operator")
    csrf = log_in(client, "ana")
    inbox = client.get(f"/console/w/{bot.workspace_id}/inbox/items")
    assert inbox.status_code == 200 and thread["id"] in inbox.text
    reply = client.post(
        f"/console/w/{bot.workspace_id}/conversations/{thread['id']}/reply",
        data={"content": "Hola, soy Ana. El sábado no entregamos.", "csrf": csrf},
        follow_redirects=False,
    )
    assert reply.status_code == 303, reply.text

    seen = _read_back(client, bot, BOT_THREAD)
    assert seen["id"] == thread["id"] and seen["handoff"]
    assert [m["role"] for m in seen["messages"]] == ["user", "assistant", "operator"]
    assert seen["messages"][-1]["content"] == "Hola, soy Ana. El sábado no entregamos."
    assert seen["messages"][1]["content"] == held["holdingMessage"]

    released = client.post(
        f"/admin/workspaces/{bot.workspace_id}/conversations/{thread['id']}/release",
        headers=admin_headers,
    )
    assert released.status_code == 200 and released.json()["handoff"] is False
    again = _review(client, bot, body(GROUNDED, turn_key="msg-2", threadId=BOT_THREAD))
    assert again["action"] == "send"
    assert not _conversation(client, bot, admin_headers, thread["id"])["handoff"]


def test_a_vigia_conversation_of_the_workspace_is_a_thread_for_a_workspace_key(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    """A workspace key may name any conversation of its workspace (here an internal
    agent's, opened by a chat turn)."""
    bot = _external()
    internal = client.post(
        f"/admin/workspaces/{bot.workspace_id}/agents",
        json={"slug": "web", "instructions": INSTRUCTIONS},
        headers=admin_headers,
    )
    assert internal.status_code in (200, 201), internal.text
    chat = client.post(
        "/v1/chat/completions",
        json={"model": "web", "messages": [{"role": "user", "content": "¿Qué horario tienen?"}]},
        headers={"Authorization": f"Bearer {bot.draft_key}"},
    )
    assert chat.status_code == 200, chat.text
    cid = chat.json()["sherlock"]["conversation_id"]
    _review(client, bot, body(GROUNDED, threadId=cid))
    thread = _conversation(client, bot, admin_headers, cid)
    assert thread["external_id"] is None
    assert [m["role"] for m in thread["messages"]][-1] == "review"


def test_thread_id_over_the_limit_or_of_another_workspace_is_404_with_nothing_stored(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    bot = _external()
    other = make_tenant(name="ajena", slug="otro", kind="external")
    _review(client, other, body(GRAVE, threadId="hilo-ajeno"))
    foreign = _conversation(
        client,
        other,
        admin_headers,
        "hilo-ajeno",
    )["id"]
    for thread_id in ("x" * 65, foreign):
        response = client.post(
            url(bot.agent_id),
            json=body(GRAVE, threadId=thread_id),
            headers={"Authorization": f"Bearer {bot.production_key}"},
        )
        assert response.status_code == 404, response.text
        assert response.json() == {"detail": "conversation not found"}
    # Nothing stored: the same turn reviewed without a thread is a fresh review.
    fresh = _review(client, bot, body(GRAVE, turn_key="msg-1"))
    assert fresh["action"] == "retry"
    lookups = client.get(
        f"/admin/workspaces/{bot.workspace_id}/conversations/{'x' * 65}", headers=admin_headers
    )
    assert lookups.status_code == 404


def test_messages_of_a_conversation_the_key_may_not_reach_are_404(client: TestClient) -> None:
    bot = _external()
    other = make_tenant(name="ajena", slug="otro", kind="external")
    _review(client, other, body(GRAVE, threadId="hilo-ajeno"))
    for cid in ("hilo-ajeno", "x" * 65, "no-existe"):
        response = client.get(
            f"/v1/conversations/{cid}/messages",
            headers={"Authorization": f"Bearer {bot.production_key}"},
        )
        assert response.status_code == 404, response.text
        assert response.json() == {"detail": "conversation not found"}
    unauthenticated = client.get("/v1/conversations/hilo-ajeno/messages")
    assert unauthenticated.status_code == 401
