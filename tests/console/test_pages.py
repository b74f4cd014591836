"""The console's pages without a browser: the language switch, the CSP, and each section's
actions (the catalog: ``test_catalogue.py``)."""

from __future__ import annotations

import json
import re

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from vigia.agents.models import Agent
from vigia.console.security import CSP
from vigia.db.session import session_scope
from vigia.knowledge.models import KnowledgeBase, KnowledgeDocument
from vigia.workspaces.models import ApiKey, Workspace


def _owner(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    make_user("ana", tenant.workspace_id, "owner")
    return f"/console/w/{tenant.workspace_id}", log_in(client, "ana")


def test_the_language_switch_renders_english(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    switched = client.post(
        "/console/language", data={"lang": "en", "next": f"{base}/keys", "csrf": token}
    )
    assert switched.url.path == f"{base}/keys"
    assert '<html lang="en">' in switched.text and ">Agents</a>" in switched.text
    assert ">Agentes</a>" not in switched.text


def test_pages_carry_the_strict_csp_and_no_inline_code(client: TestClient, tenant: Tenant) -> None:
    base, _ = _owner(client, tenant)
    for section in [
        "agents",
        f"agents/{tenant.agent_slug}",
        "knowledge",
        "keys",
        "conversations",
        "inbox",
        "usage",
        "evaluation",
    ]:
        response = client.get(f"{base}/{section}")
        assert response.headers["content-security-policy"] == CSP
        assert response.headers["x-frame-options"] == "DENY"
        assert re.search(r"<script(?![^>]*\bsrc=)", response.text) is None, section
        assert " style=" not in response.text and "<style" not in response.text, section
        tags = " ".join(re.findall(r"<[a-z][^>]*>", response.text))
        assert re.search(r"\son[a-z]+=", tags) is None, section  # no inline event handlers
    script = client.get("/console/static/console.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]


def test_the_agent_form_saves_the_draft_and_publish_freezes_it(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    page = client.get(f"{base}/agents/{tenant.agent_slug}").text
    form = {
        "csrf": token,
        "name": "Asistente",
        "instructions": "Respondé corto.",
        "language": "es",
        "memory_turns": "4",
        "top_k": "3",
        "model_provider": "embedded",
        "model_name": "embedded",
        "guardrail_injection": "log",
        "guardrail_length": "block",
        "guardrail_topics": "off",
        "guardrail_grounding": "block",
        "guardrail_personal_data": "block",
        "blocked_topics": "política: elecciones, partidos",
        "reply_blocked": "No puedo.",
    }
    assert "el borrador está publicado" in page
    saved = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert saved.status_code == 200 and "Borrador guardado." in saved.text
    assert "el borrador tiene cambios" in saved.text and "Respondé corto." in saved.text
    with session_scope() as session:
        draft = session.scalars(select(Agent.draft)).one()
    assert draft["memory_turns"] == 4 and draft["guardrails"]["injection"] == "log"
    assert draft["guardrails"]["blocked_topics"] == [
        {"name": "política", "description": "elecciones, partidos"}
    ]
    bad = client.post(
        f"{base}/agents/{tenant.agent_slug}/draft", data={**form, "memory_turns": "500"}
    )
    assert bad.status_code == 422 and "memory_turns" in bad.text
    with session_scope() as session:
        assert session.scalars(select(Agent.draft)).one() == draft
    published = client.post(f"{base}/agents/{tenant.agent_slug}/publish", data={"csrf": token})
    assert "Publicado como v2" in published.text and "Sin cambios." in published.text


def test_a_conversation_shows_its_messages_escaped_with_the_run_trace(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    streamed = client.post(
        f"{base}/agents/{tenant.agent_slug}/chat",
        data={"csrf": token, "message": "<b>hola</b> ¿atienden los lunes?"},
    )
    assert streamed.headers["content-type"].startswith("text/event-stream")
    done = [line for line in streamed.text.splitlines() if '"type": "done"' in line]
    conversation = re.search(r'"conversation_id": "([^"]+)"', done[0]).group(1)  # type: ignore[union-attr]
    page = client.get(f"{base}/conversations/{conversation}").text
    assert "&lt;b&gt;hola&lt;/b&gt;" in page and "<b>hola</b>" not in page
    assert "<td>guardrails de entrada</td>" in page and "<td>generación</td>" in page
    listed = client.get(
        f"{base}/conversations?agent={tenant.agent_slug}&status=agent&test=true"
    ).text
    assert conversation[:8] in listed
    assert conversation[:8] not in client.get(f"{base}/conversations?status=agent").text
    assert conversation[:8] not in client.get(f"{base}/conversations?status=handoff&test=true").text


def test_the_playground_refuses_the_production_version_of_an_unknown_conversation(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    refused = client.post(
        f"{base}/agents/{tenant.agent_slug}/chat",
        data={"csrf": token, "message": "hola", "env": "production", "conversation_id": "nope"},
    )
    assert refused.status_code == 404 and "conversation not found" in refused.text


def test_a_created_key_works_until_it_is_revoked(
    client: TestClient, tenant: Tenant, live_server: str
) -> None:
    base, token = _owner(client, tenant)
    created = client.post(
        f"{base}/keys",
        data={
            "csrf": token,
            "name": "web",
            "env": "draft",
            "agent": tenant.agent_slug,
            "scopes": ["chat"],
            "rpm": "30",
        },
    )
    assert created.status_code == 201
    secret = re.search(r'data-role="secret">(sk-vigia-[^<]+)<', created.text).group(1)  # type: ignore[union-attr]
    with session_scope() as session:
        row = session.scalars(select(ApiKey).where(ApiKey.name == "web")).one()
        assert (row.env, row.rpm, row.scopes, row.agent_id) == (
            "draft",
            30,
            ["chat"],
            tenant.agent_id,
        )
    headers = {"Authorization": f"Bearer {secret}"}
    assert httpx.get(f"{live_server}/v1/models", headers=headers).status_code == 200
    assert secret not in client.get(f"{base}/keys").text  # shown once
    client.post(f"{base}/keys/{row.id}/revoke", data={"csrf": token})
    assert httpx.get(f"{live_server}/v1/models", headers=headers).status_code == 401
    bad = client.post(f"{base}/keys", data={"csrf": token, "rpm": "0", "scopes": ["chat"]})
    assert bad.status_code == 422 and "rpm" in bad.text


def test_usage_charts_and_the_budget(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    client.post(f"{base}/agents/{tenant.agent_slug}/chat", data={"csrf": token, "message": "hola"})
    page = client.get(f"{base}/usage").text
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', page)]
    assert any(h > 0 for h in heights) and "<title>asistente:" in page
    client.post(
        f"{base}/usage/budget", data={"csrf": token, "budget_usd": "12.5", "action": "alert"}
    )
    refused = client.post(f"{base}/usage/budget", data={"csrf": token, "budget_usd": "nan"})
    assert refused.status_code == 422
    with session_scope() as session:
        workspace = session.get(Workspace, tenant.workspace_id)
        assert workspace is not None
        assert (workspace.budget_usd, workspace.budget_action) == (12.5, "alert")


def test_evaluation_cases_are_added_run_and_exported(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    slug = tenant.agent_slug
    added = client.post(
        f"{base}/evaluation/{slug}/cases",
        data={
            "csrf": token,
            "name": "horario",
            "input": "¿Atienden los lunes?",
            "contains": "lunes a viernes",
            "status": "ok",
        },
    )
    assert added.status_code == 200 and "horario" in added.text
    empty = client.post(f"{base}/evaluation/{slug}/cases", data={"csrf": token, "input": "x"})
    assert empty.status_code == 422 and "Agregá al menos una condición" in empty.text
    report = client.post(f"{base}/evaluation/{slug}/run", data={"csrf": token, "env": "draft"})
    assert "1 pasan · 0 fallan" in report.text
    exported = client.get(f"{base}/evaluation/{slug}/promptfoo?env=draft")
    assert exported.headers["content-type"].startswith("application/yaml")
    assert "icontains" in exported.text and "sk-vigia" not in exported.text


def test_agents_are_created_once_with_a_valid_slug(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    created = client.post(f"{base}/agents", data={"csrf": token, "slug": "ventas"})
    assert created.url.path == f"{base}/agents/ventas"
    again = client.post(f"{base}/agents", data={"csrf": token, "slug": "ventas"})
    assert again.status_code == 409 and "Ya hay un agente con ese identificador" in again.text
    bad = client.post(f"{base}/agents", data={"csrf": token, "slug": "Con Espacios"})
    assert bad.status_code == 422 and "Solo minúsculas, dígitos y guiones" in bad.text
    with session_scope() as session:
        assert sorted(session.scalars(select(Agent.slug))) == ["asistente", "ventas"]


def test_an_unreadable_upload_is_refused_and_stores_nothing(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    client.post(f"{base}/knowledge", data={"csrf": token, "name": "manual"})
    with session_scope() as session:
        kb_id = session.scalars(select(KnowledgeBase.id)).one()
    refused = client.post(
        f"{base}/knowledge/{kb_id}/documents",
        data={"csrf": token},
        files={"file": ("planilla.xlsx", b"PK\x03\x04 not a document", "application/vnd.ms-excel")},
        headers={"HX-Request": "true"},
    )
    assert refused.status_code == 415 and 'id="documents"' in refused.text
    assert "Sin documentos." in refused.text
    with session_scope() as session:
        assert session.scalars(select(KnowledgeDocument)).all() == []


def test_the_agent_form_edits_http_tools_as_json(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    tool = {
        "name": "pedido",
        "description": "Estado de un pedido",
        "url": "https://api.example.com/pedidos/{id}",
        "parameters": {"type": "object", "properties": {"id": {"type": "string"}}},
    }
    form = {"csrf": token, "name": "asistente", "tools": json.dumps([tool])}
    saved = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert saved.status_code == 200 and "pedidos/{id}" in saved.text
    with session_scope() as session:
        stored = session.scalars(select(Agent.draft)).one()["tools"]
    assert [(t["name"], t["url"]) for t in stored] == [("pedido", tool["url"])]
    broken = client.post(
        f"{base}/agents/{tenant.agent_slug}/draft", data={**form, "tools": "[{not json"}
    )
    assert broken.status_code == 422 and "tools" in broken.text
    with session_scope() as session:
        assert session.scalars(select(Agent.draft)).one()["tools"] == stored
