"""The console's admin pages for agents: version history, one version read-only, rollback,
the evaluation-gated publish, deleting an agent, and the keys' dates. Answers come from
the real API (``/v1/chat/completions`` through the ASGI app) with the embedded model."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from markupsafe import escape
from sqlalchemy import func, select

from tests.conftest import Tenant
from tests.console.helpers import PASSWORD, log_in, make_user
from vigia.agents.models import Agent, AgentVersion
from vigia.console.security import CSP
from vigia.conversations.models import Conversation, Message
from vigia.db.session import session_scope
from vigia.engine.models import Run
from vigia.users.service import create_user
from vigia.workspaces.models import ApiKey

HOURS_9 = "Horarios de la tienda. La tienda abre a las 9 de la mañana de lunes a viernes."
HOURS_10 = "Horarios de la tienda. La tienda abre a las 10 de la mañana de lunes a viernes."
ASK_HOURS = "¿A qué hora abre la tienda?"
SECRET = re.compile(r'data-role="secret">(sk-vigia-[^<]+)<')


def _owner(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    make_user("ana", tenant.workspace_id, "owner")
    return f"/console/w/{tenant.workspace_id}", log_in(client, "ana")


def _answer(client: TestClient, key: str, model: str, question: str) -> str:
    response = client.post(
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={"model": model, "messages": [{"role": "user", "content": question}]},
    )
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


def _knowledge(client: TestClient, headers: dict[str, str], tenant: Tenant) -> str:
    """A knowledge base attached to the tenant's agent draft; returns its admin URL."""
    workspace = f"/admin/workspaces/{tenant.workspace_name}"
    created = client.post(f"{workspace}/knowledge-bases", json={"name": "Tienda"}, headers=headers)
    kb_id = created.json()["id"]
    attached = client.patch(
        f"{workspace}/agents/{tenant.agent_slug}",
        json={"knowledge_bases": [kb_id]},
        headers=headers,
    )
    assert attached.status_code == 200, attached.text
    return f"{workspace}/knowledge-bases/{kb_id}"


def _upload(client: TestClient, headers: dict[str, str], kb: str, text: str) -> None:
    response = client.post(
        f"{kb}/documents",
        files={"file": ("horarios.txt", text.encode(), "text/plain")},
        headers=headers,
    )
    assert response.status_code in (200, 201), response.text


def _edit_draft(
    client: TestClient, headers: dict[str, str], tenant: Tenant, instructions: str
) -> None:
    agent = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    edited = client.patch(agent, json={"instructions": instructions}, headers=headers)
    assert edited.status_code == 200, edited.text


def _published(tenant: Tenant) -> int | None:
    with session_scope() as session:
        return session.get(Agent, tenant.agent_id).published_version  # type: ignore[union-attr]


def test_a_console_rollback_restores_the_old_answers_for_a_production_key(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    agent_url = f"{base}/agents/{tenant.agent_slug}"
    kb = _knowledge(client, admin_headers, tenant)
    _upload(client, admin_headers, kb, HOURS_9)
    client.post(f"{agent_url}/publish", data={"csrf": token})  # v2 reads "a las 9"
    _upload(client, admin_headers, kb, HOURS_10)
    client.post(f"{agent_url}/publish", data={"csrf": token})  # v3 reads "a las 10"
    assert "a las 10" in _answer(client, tenant.production_key, tenant.agent_slug, ASK_HOURS)

    rolled = client.post(f"{agent_url}/versions/2/rollback", data={"csrf": token})
    assert rolled.status_code == 200 and rolled.url.path == agent_url
    assert "Se volvió a publicar la versión v2 · Publicado como v4" in rolled.text
    assert "a las 9" in _answer(client, tenant.production_key, tenant.agent_slug, ASK_HOURS)
    assert "a las 10" in _answer(client, tenant.draft_key, tenant.agent_slug, ASK_HOURS)
    with session_scope() as session:
        versions = session.scalars(
            select(AgentVersion)
            .where(AgentVersion.agent_id == tenant.agent_id)
            .order_by(AgentVersion.number)
        ).all()
        assert [(v.number, v.published_by) for v in versions] == [
            (1, None),
            (2, "ana"),
            (3, "ana"),
            (4, "ana"),
        ]
    listed = re.search(r'<section class="card" id="versions">(.*?)</section>', rolled.text, re.S)
    assert listed is not None
    rows = listed.group(1).split("<li>")[1:]
    assert ">v4</a>" in rows[0] and "ana" in rows[0] and ">Producción</span>" in rows[0]
    assert ">v1</a>" in rows[-1] and "sin registro de quién" in rows[-1]
    assert all("Producción" not in row for row in rows[1:])
    assert client.post(f"{agent_url}/versions/9/rollback", data={"csrf": token}).status_code == 404
    assert client.post(f"{agent_url}/versions/0/rollback", data={"csrf": token}).status_code == 422
    assert _published(tenant) == 4


def test_a_version_page_shows_its_configuration_and_what_a_rollback_would_change(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    agent_url = f"{base}/agents/{tenant.agent_slug}"
    _edit_draft(client, admin_headers, tenant, "Respondé <b>corto</b>.")
    client.post(f"{agent_url}/publish", data={"csrf": token})
    first = client.get(f"{agent_url}/versions/1")
    assert first.status_code == 200 and first.headers["content-security-policy"] == CSP
    assert re.search(r"<script(?![^>]*\bsrc=)", first.text) is None and " style=" not in first.text
    assert 'id="version-config"' in first.text and "de lunes a viernes de 9 a 18" in first.text
    assert "sin registro de quién" in first.text
    removed = escape('-  "instructions": "Respondé <b>corto</b>.",')  # escaped, in the diff
    assert f'<span class="remove">{removed}</span>' in first.text
    assert f'action="{agent_url}/versions/1/rollback"' in first.text
    current = client.get(f"{agent_url}/versions/2")
    assert "por ana" in current.text and ">Producción</span>" in current.text
    assert "Sin cambios." in current.text and "/versions/2/rollback" not in current.text
    assert client.get(f"{agent_url}/versions/3").status_code == 404
    assert client.get(f"{agent_url}/versions/x").status_code == 422

    make_user("vera", tenant.workspace_id, "viewer")
    viewer = TestClient(client.app)
    log_in(viewer, "vera")
    seen = viewer.get(f"{agent_url}/versions/1")
    assert seen.status_code == 200 and 'id="version-config"' in seen.text
    assert "/rollback" not in seen.text
    assert "/delete" not in viewer.get(agent_url).text


def test_viewers_and_operators_cannot_roll_back_delete_or_publish(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    base = f"/console/w/{tenant.workspace_id}"
    agent_url = f"{base}/agents/{tenant.agent_slug}"
    make_user("vera", tenant.workspace_id, "viewer")
    make_user("oscar", tenant.workspace_id, "operator")
    make_user("ana", tenant.workspace_id, "owner")
    owner = TestClient(client.app)
    owner_token = log_in(owner, "ana")
    _edit_draft(client, admin_headers, tenant, "Otra.")
    owner.post(f"{agent_url}/publish", data={"csrf": owner_token})
    for name in ("vera", "oscar"):
        other = TestClient(client.app)
        token = log_in(other, name)
        posts = {
            f"{agent_url}/versions/1/rollback": {"csrf": token},
            f"{agent_url}/delete": {"csrf": token, "confirm": tenant.agent_slug},
            f"{agent_url}/publish": {"csrf": token, "require_eval": "on"},
        }
        for url, data in posts.items():
            assert other.post(url, data=data).status_code == 403, (name, url)
    outsider = TestClient(client.app)
    with session_scope() as session:
        create_user(session, "nadie", PASSWORD)
    token = log_in(outsider, "nadie")
    refused = outsider.post(f"{agent_url}/versions/1/rollback", data={"csrf": token})
    assert refused.status_code == 404
    assert _published(tenant) == 2
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None and agent.deleted_at is None


def _channel_key(client: TestClient, base: str, token: str, slug: str) -> str:
    created = client.post(
        f"{base}/keys",
        data={"csrf": token, "name": "web", "env": "production", "agent": slug, "scopes": ["chat"]},
    )
    assert created.status_code == 201, created.text
    found = SECRET.search(created.text)
    assert found is not None
    return found.group(1)


def _kept(agent_id: str) -> tuple[int, int, int]:
    with session_scope() as session:
        conversations = select(Conversation.id).where(Conversation.agent_id == agent_id)
        return (
            session.scalar(select(func.count()).select_from(conversations.subquery())) or 0,
            session.scalar(select(func.count()).where(Message.conversation_id.in_(conversations)))
            or 0,
            session.scalar(select(func.count()).where(Run.agent_id == agent_id)) or 0,
        )


def test_deleting_an_agent_revokes_its_keys_hides_it_and_keeps_its_conversations(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    slug = tenant.agent_slug
    channel = _channel_key(client, base, token, slug)
    assert "lunes a viernes" in _answer(client, channel, slug, "¿Atienden los lunes?")
    _answer(client, tenant.production_key, slug, "¿Atienden los sábados?")
    before = _kept(tenant.agent_id)
    assert before[0] >= 1 and before[1] >= 4 and before[2] == 2

    wrong = client.post(f"{base}/agents/{slug}/delete", data={"csrf": token, "confirm": "otro"})
    assert wrong.status_code == 422 and "no se borró nada" in wrong.text
    models = client.get("/v1/models", headers={"Authorization": f"Bearer {channel}"})
    assert [m["id"] for m in models.json()["data"]] == [slug]

    deleted = client.post(f"{base}/agents/{slug}/delete", data={"csrf": token, "confirm": slug})
    assert deleted.status_code == 200 and deleted.url.path == f"{base}/agents"
    assert f"Agente borrado: {slug}" in deleted.text and f'agents/{slug}"' not in deleted.text
    assert client.get(f"{base}/agents/{slug}").status_code == 404
    admin_agent = f"/admin/workspaces/{tenant.workspace_name}/agents/{slug}"
    assert client.get(admin_agent, headers=admin_headers).status_code == 404
    gone = client.get("/v1/models", headers={"Authorization": f"Bearer {channel}"})
    assert gone.status_code == 401
    workspace_key = {"Authorization": f"Bearer {tenant.production_key}"}
    assert client.get("/v1/models", headers=workspace_key).json()["data"] == []
    turn = client.post(
        "/v1/chat/completions",
        headers=workspace_key,
        json={"model": slug, "messages": [{"role": "user", "content": "hola"}]},
    )
    assert turn.status_code == 404
    assert _kept(tenant.agent_id) == before
    with session_scope() as session:
        keys = session.scalars(select(ApiKey).where(ApiKey.agent_id == tenant.agent_id)).all()
        assert [k.revoked_at is not None for k in keys] == [True]
        row = session.get(Agent, tenant.agent_id)
        assert row is not None and row.deleted_at is not None
        assert row.slug == f"{slug}~{tenant.agent_id[:8]}"
    keys_page = client.get(f"{base}/keys").text
    assert f"{slug}~{tenant.agent_id[:8]}" in keys_page and "revocada" in keys_page
    # its kept conversations still name it, in the list and on their own page
    listed = client.get(f"{base}/conversations", params={"test": "true"}).text
    assert f"{slug}~{tenant.agent_id[:8]}" in listed
    # the slug is free again: a new agent takes it, with nothing of the old one
    again = client.post(f"{base}/agents", data={"csrf": token, "slug": slug})
    assert again.url.path == f"{base}/agents/{slug}" and "sin publicar" in again.text


def test_the_keys_page_shows_creation_last_use_and_a_copy_button(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    created = client.post(f"{base}/keys", data={"csrf": token, "name": "nueva", "scopes": ["chat"]})
    assert 'id="issued-secret" data-role="secret"' in created.text
    assert 'data-copy="issued-secret"' in created.text and ">Copiar</button>" in created.text
    secret = SECRET.search(created.text).group(1)  # type: ignore[union-attr]

    def row_of(name: str) -> str:
        found = re.search(
            rf"<tr[^>]*>\s*<td>{name}</td>(.*?)</tr>", client.get(f"{base}/keys").text, re.S
        )
        assert found is not None, name
        return found.group(1)

    with session_scope() as session:
        made = session.scalars(select(ApiKey).where(ApiKey.name == "nueva")).one().created_at
    assert made.strftime("%Y-%m-%d %H:%M") in row_of("nueva") and "nunca" in row_of("nueva")
    _answer(client, secret, tenant.agent_slug, "¿Atienden los lunes?")
    with session_scope() as session:
        last = session.scalars(select(Run.created_at).where(Run.key_id.is_not(None))).one()
    used = row_of("nueva")
    assert "nunca" not in used and used.count(last.strftime("%Y-%m-%d %H:%M")) >= 1


def test_publish_only_if_the_cases_pass(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    slug = tenant.agent_slug
    agent_url = f"{base}/agents/{slug}"
    _edit_draft(client, admin_headers, tenant, "Atendemos de lunes a viernes de 8 a 17 horas.")
    gated = {"csrf": token, "require_eval": "on"}
    none = client.post(f"{agent_url}/publish", data=gated)
    assert none.status_code == 409 and "no tiene casos de evaluación" in none.text
    assert _published(tenant) == 1

    def add_case(contains: str) -> None:
        added = client.post(
            f"{base}/evaluation/{slug}/cases",
            data={"csrf": token, "input": "¿Atienden los lunes?", "contains": contains},
        )
        assert added.status_code == 200, added.text

    add_case("lunes a viernes")
    published = client.post(f"{agent_url}/publish", data=gated)
    assert published.status_code == 200 and published.url.path == agent_url
    assert _published(tenant) == 2

    add_case("atendemos los domingos")
    _edit_draft(client, admin_headers, tenant, "Atendemos de lunes a viernes de 7 a 15 horas.")
    failing = client.post(f"{agent_url}/publish", data=gated)
    assert failing.status_code == 409
    refusal = re.search(r'id="gate-refusal">(.*?)</p>', failing.text, re.S)
    assert refusal is not None
    assert "1 de 2 casos de evaluación fallan en el borrador: no se publicó." in refusal.group(1)
    assert _published(tenant) == 2
    with session_scope() as session:
        version = session.scalars(
            select(AgentVersion).where(
                AgentVersion.agent_id == tenant.agent_id, AgentVersion.number == 2
            )
        ).one()
        assert version.published_by == "ana"
        assert "8 a 17" in version.config["instructions"]
