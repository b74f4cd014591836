"""The output-review API as the spec describes it: actions, limits, isolation, idempotency."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.conftest import Tenant, make_tenant
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentCreate, AgentPatch
from vigia.agents.service import create_agent, publish, update_draft
from vigia.conversations.models import Conversation
from vigia.conversations.service import messages
from vigia.db.session import session_scope
from vigia.guardrails.config import GuardrailsConfig
from vigia.review.models import OutputReview
from vigia.workspaces.models import Workspace
from vigia.workspaces.service import create_key

INSTRUCTIONS = "Somos una tienda de ropa. Atendemos de lunes a viernes de 9 a 18 horas."
GROUNDED = "Atendemos de lunes a viernes de 9 a 18 horas."
GRAVE = "Sí, entregamos todos los días, incluso el domingo."  # concrete: days
LEVE = "Nuestro equipo de diseño trabaja con telas importadas de Italia."  # vague, one claim


@pytest.fixture
def external() -> Tenant:
    return make_tenant(
        name="tienda", slug="bot-externo", instructions=INSTRUCTIONS, kind="external"
    )


def url(agent_id: str) -> str:
    return f"/api/external/v1/agents/{agent_id}/output-review"


def body(reply: str, attempt: int = 1, turn_key: str = "msg-1", **extra: Any) -> dict[str, Any]:
    return {
        "turnKey": turn_key,
        "attempt": attempt,
        "message": "¿Entregan?",
        "reply": reply,
        **extra,
    }


def review(client: TestClient, tenant: Tenant, payload: dict[str, Any]) -> dict[str, Any]:
    response = client.post(
        url(tenant.agent_id),
        json=payload,
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    assert response.status_code == 200, response.text
    return response.json()


def set_guardrails(tenant: Tenant, **changes: object) -> None:
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        update_draft(session, agent, AgentPatch(guardrails=GuardrailsConfig(**changes)))
        publish(session, agent)


def test_approved_reply_is_sent(client: TestClient, external: Tenant) -> None:
    out = review(client, external, body(GROUNDED))
    assert out["verdict"] == "approved" and out["action"] == "send"
    assert out["triggered"] == [] and out["severity"] is None and out["holdingMessage"] is None
    assert out["considerations"] == {
        "fixed": [],
        "feedback": {"problemas": [], "afirmacoes_sem_base": [], "orientacao": ""},
    }
    assert out["reviewId"]


def test_first_rejection_asks_for_a_retry_with_considerations(
    client: TestClient, external: Tenant
) -> None:
    out = review(client, external, body(GRAVE))
    assert out["verdict"] == "rejected" and out["action"] == "retry"
    assert out["triggered"] == ["grounding"] and out["severity"] == "grave"
    assert out["considerations"]["fixed"] == ["A resposta afirma algo que não está nas instruções."]
    feedback = out["considerations"]["feedback"]
    assert feedback["afirmacoes_sem_base"] == [GRAVE]
    assert feedback["problemas"] and feedback["orientacao"]
    assert out["holdingMessage"] is None


def test_second_grave_rejection_holds_with_the_holding_message(
    client: TestClient, external: Tenant
) -> None:
    out = review(client, external, body(GRAVE, attempt=2))
    assert out["action"] == "hold" and out["severity"] == "grave"
    assert out["holdingMessage"].startswith("Gracias por tu paciencia")


def test_second_leve_rejection_is_sent_with_a_tag(client: TestClient, external: Tenant) -> None:
    out = review(client, external, body(LEVE, attempt=2))
    assert out["verdict"] == "rejected" and out["severity"] == "leve"
    assert out["action"] == "send_with_tag" and out["holdingMessage"] is None


def test_log_mode_rejection_is_sent(client: TestClient, external: Tenant) -> None:
    set_guardrails(external, grounding="log")
    out = review(client, external, body(GRAVE, attempt=2))
    assert out["verdict"] == "rejected" and out["triggered"] == ["grounding"]
    assert out["action"] == "send"


def test_without_output_guardrails_everything_is_sent(client: TestClient, external: Tenant) -> None:
    set_guardrails(external, grounding="off", personal_data="off", topics="off")
    out = review(client, external, body(GRAVE + " Escribí a ana@mail.com.", attempt=2))
    assert out["verdict"] == "approved" and out["action"] == "send" and out["triggered"] == []


def test_personal_data_in_the_reply_is_rejected(client: TestClient, external: Tenant) -> None:
    set_guardrails(external, grounding="off")
    out = review(client, external, body("El titular anterior es ana@mail.com, DNI 30.123.456."))
    assert out["triggered"] == ["personal_data"] and out["action"] == "retry"
    assert "e-mail" in out["considerations"]["feedback"]["problemas"][0]


def test_sources_and_request_instructions_ground_the_reply(
    client: TestClient, external: Tenant
) -> None:
    out = review(
        client,
        external,
        body(
            "El envío es gratis en compras desde $30.000.",
            sources="El envío es gratis en compras desde $30.000. No enviamos al exterior.",
        ),
    )
    assert out["verdict"] == "approved"


def test_same_turn_and_attempt_returns_the_stored_review(
    client: TestClient, external: Tenant
) -> None:
    first = review(client, external, body(GRAVE))
    again = review(client, external, body(GROUNDED))  # same turnKey + attempt: same review
    assert again == first
    second_attempt = review(client, external, body(GROUNDED, attempt=2))
    assert second_attempt["reviewId"] != first["reviewId"]
    with session_scope() as session:
        assert session.scalar(select(func.count()).select_from(OutputReview)) == 2


def test_agent_of_another_workspace_or_not_external_is_not_found(
    client: TestClient, external: Tenant
) -> None:
    other = make_tenant(name="otra", slug="otro", kind="external")
    internal = make_tenant(name="interna", slug="interno")
    headers = {"Authorization": f"Bearer {external.production_key}"}
    own_internal = {"Authorization": f"Bearer {internal.production_key}"}
    for agent_id, key in [
        (other.agent_id, headers),
        (internal.agent_id, own_internal),
        ("x" * 300, headers),
    ]:
        response = client.post(url(agent_id), json=body(GROUNDED), headers=key)
        assert response.status_code == 404 and response.json() == {"detail": "agent not found"}


def test_key_without_the_review_scope_is_refused(client: TestClient) -> None:
    tenant = make_tenant(name="sinscope", slug="bot", kind="external", scopes=["chat"])
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    refused = client.post(url(tenant.agent_id), json=body(GROUNDED), headers=headers)
    assert refused.status_code == 403
    assert refused.json() == {"detail": "this API key lacks the 'guardrails:review' scope"}
    anonymous = client.post(url(tenant.agent_id), json=body(GROUNDED))
    assert anonymous.status_code == 401 and "missing API key" in anonymous.json()["detail"]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("turnKey", "k" * 129),
        ("turnKey", ""),
        ("attempt", 3),
        ("message", "m" * 4001),
        ("reply", "r" * 8001),
        ("reply", ""),
        ("instructions", "i" * 40_001),
        ("recentConversation", "c" * 3001),
        ("sources", "s" * 20_001),
    ],
)
def test_field_limits_answer_422(
    client: TestClient, external: Tenant, field: str, value: object
) -> None:
    payload = body(GROUNDED)
    payload[field] = value
    response = client.post(
        url(external.agent_id),
        json=payload,
        headers={"Authorization": f"Bearer {external.production_key}"},
    )
    assert response.status_code == 422
    assert any(field in error["loc"] for error in response.json()["detail"])


def test_missing_required_fields_answer_422(client: TestClient, external: Tenant) -> None:
    response = client.post(
        url(external.agent_id),
        json={"turnKey": "a"},
        headers={"Authorization": f"Bearer {external.production_key}"},
    )
    assert response.status_code == 422
    missing = [e["loc"] for e in response.json()["detail"] if e["type"] == "missing"]
    assert missing == [["body", "attempt"], ["body", "message"], ["body", "reply"]]


def new_conversation(tenant: Tenant) -> str:
    with session_scope() as session:
        conversation = Conversation(workspace_id=tenant.workspace_id, agent_id=tenant.agent_id)
        session.add(conversation)
        session.flush()
        return conversation.id


def test_thread_stores_the_review_and_hold_hands_the_conversation_over(
    client: TestClient, external: Tenant
) -> None:
    thread = new_conversation(external)
    review(client, external, body(GRAVE, threadId=thread))
    held = review(client, external, body(GRAVE, attempt=2, threadId=thread))
    with session_scope() as session:
        conversation = session.get(Conversation, thread)
        assert conversation is not None and conversation.handoff
        stored = [json.loads(m.content) for m in messages(session, thread) if m.role == "review"]
    assert [m["action"] for m in stored] == ["retry", "hold"]
    assert stored[1]["reviewId"] == held["reviewId"] and stored[1]["reply"] == GRAVE


def test_approved_review_in_a_thread_keeps_the_agent_in_charge(
    client: TestClient, external: Tenant
) -> None:
    thread = new_conversation(external)
    review(client, external, body(GROUNDED, attempt=2, threadId=thread))
    with session_scope() as session:
        conversation = session.get(Conversation, thread)
        assert conversation is not None and not conversation.handoff


def test_thread_of_another_workspace_is_not_found_and_nothing_is_stored(
    client: TestClient, external: Tenant
) -> None:
    other = make_tenant(name="ajena", slug="bot", kind="external")
    thread = new_conversation(other)
    response = client.post(
        url(external.agent_id),
        json=body(GRAVE, threadId=thread),
        headers={"Authorization": f"Bearer {external.production_key}"},
    )
    assert response.status_code == 404 and response.json() == {"detail": "conversation not found"}
    with session_scope() as session:
        assert session.scalar(select(func.count()).select_from(OutputReview)) == 0


def test_thread_of_another_agent_is_not_found_for_a_channel_key_and_not_handed_off(
    client: TestClient, external: Tenant
) -> None:
    """A key bound to agent A cannot store a review in, or hold, agent B's conversation
    (a workspace key may: tests/review/test_external_threads.py)."""
    with session_scope() as session:
        workspace = session.get(Workspace, external.workspace_id)
        assert workspace is not None
        other = create_agent(
            session,
            workspace,
            AgentCreate(slug="otro-bot", instructions=INSTRUCTIONS, kind="external"),
        )
        key = create_key(
            session, workspace, agent_id=external.agent_id, scopes=["guardrails:review"]
        ).secret
        thread = Conversation(workspace_id=external.workspace_id, agent_id=other.id)
        session.add(thread)
        session.flush()
        thread_id = thread.id
    headers = {"Authorization": f"Bearer {key}"}
    for attempt in (1, 2):
        response = client.post(
            url(external.agent_id),
            json=body(GRAVE, attempt=attempt, threadId=thread_id),
            headers=headers,
        )
        assert response.status_code == 404
        assert response.json() == {"detail": "conversation not found"}
    with session_scope() as session:
        conversation = session.get(Conversation, thread_id)
        assert conversation is not None and not conversation.handoff
        assert messages(session, thread_id) == []
        assert session.scalar(select(func.count()).select_from(OutputReview)) == 0
