"""Who may do what in the console: login, roles per workspace, CSRF on every post."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.conftest import Tenant, make_tenant
from tests.console.helpers import csrf_of, log_in, make_user
from vigia.agents.models import Agent
from vigia.db.session import session_scope
from vigia.workspaces.models import ApiKey

SECTIONS = ["agents", "knowledge", "keys", "conversations", "inbox", "usage", "evaluation"]


def _key_count() -> int:
    with session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(ApiKey)) or 0)


def test_pages_need_a_session_and_send_the_browser_to_the_login_form(
    client: TestClient, tenant: Tenant
) -> None:
    page = client.get(f"/console/w/{tenant.workspace_id}/keys", follow_redirects=False)
    assert page.status_code == 303
    assert page.headers["location"] == f"/console/login?next=/console/w/{tenant.workspace_id}/keys"
    polled = client.get(
        f"/console/w/{tenant.workspace_id}/inbox/items", headers={"HX-Request": "true"}
    )
    assert polled.status_code == 204
    assert polled.headers["hx-redirect"].startswith("/console/login?next=")


def test_wrong_password_shows_the_form_again_and_opens_no_session(
    client: TestClient, tenant: Tenant
) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    token = csrf_of(client)
    refused = client.post(
        "/console/login", data={"username": "ana", "password": "wrong password", "csrf": token}
    )
    assert refused.status_code == 401
    assert "Usuario o contraseña incorrectos." in refused.text
    assert "sherpa_session" not in client.cookies


def test_login_goes_back_only_to_console_pages(client: TestClient, tenant: Tenant) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    token = csrf_of(client)
    response = client.post(
        "/console/login",
        data={
            "username": "ana",
            "password": "a long console password",
            "csrf": token,
            "next": "https://evil.example/",
        },
        follow_redirects=False,
    )
    assert response.headers["location"] == "/console"
    cookie = response.headers["set-cookie"]
    assert "sherpa_session=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie


def test_the_worlds_login_opens_the_console_too(client: TestClient, tenant: Tenant) -> None:
    make_user("ana", tenant.workspace_id, "admin")
    logged = client.post(
        "/auth/login", json={"username": "ana", "password": "a long console password"}
    )
    assert logged.status_code == 200
    assert client.get(f"/console/w/{tenant.workspace_id}/agents").status_code == 200


def test_posts_without_the_csrf_token_are_refused(client: TestClient, tenant: Tenant) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    log_in(client, "ana")
    base = f"/console/w/{tenant.workspace_id}"
    before = _key_count()
    missing = client.post(f"{base}/keys", data={"name": "x", "scopes": ["chat"]})
    assert missing.status_code == 403
    assert "El formulario venció o no es de esta consola" in missing.text
    wrong = client.post(f"{base}/keys", data={"name": "x", "scopes": ["chat"], "csrf": "x" * 43})
    assert wrong.status_code == 403
    header_only = client.post(
        f"{base}/agents/{tenant.agent_slug}/publish", headers={"X-CSRF-Token": "y" * 43}
    )
    assert header_only.status_code == 403
    assert _key_count() == before
    client.cookies.delete("vigia_csrf")
    login = client.post("/console/login", data={"username": "ana", "password": "x" * 10})
    assert login.status_code == 403


def test_an_operator_sees_conversations_and_the_inbox_only(
    client: TestClient, tenant: Tenant
) -> None:
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = f"/console/w/{tenant.workspace_id}"
    landing = client.get(base, follow_redirects=False)
    assert landing.headers["location"] == f"{base}/inbox"
    inbox = client.get(f"{base}/inbox")
    assert inbox.status_code == 200
    assert ">Conversaciones</a>" in inbox.text and ">Bandeja</a>" in inbox.text
    assert ">Claves</a>" not in inbox.text and ">Agentes</a>" not in inbox.text
    assert client.get(f"{base}/conversations").status_code == 200
    for path in [
        "/agents",
        f"/agents/{tenant.agent_slug}",
        "/keys",
        "/knowledge",
        "/usage",
        "/evaluation",
    ]:
        refused = client.get(base + path)
        assert refused.status_code == 403, path
        assert "Tu rol en este espacio no permite hacer esto." in refused.text
    before = _key_count()
    assert client.post(f"{base}/keys", data={"csrf": token, "scopes": ["chat"]}).status_code == 403
    assert _key_count() == before


def test_a_viewer_reads_everything_and_changes_nothing(client: TestClient, tenant: Tenant) -> None:
    make_user("vera", tenant.workspace_id, "viewer")
    token = log_in(client, "vera")
    base = f"/console/w/{tenant.workspace_id}"
    for section in SECTIONS:
        assert client.get(f"{base}/{section}").status_code == 200, section
    agent_page = client.get(f"{base}/agents/{tenant.agent_slug}")
    assert 'id="playground"' not in agent_page.text
    assert "<fieldset disabled>" in agent_page.text
    with session_scope() as session:
        draft_before = session.scalars(select(Agent.draft)).one()
    keys_before = _key_count()
    writes: list[tuple[str, dict[str, object]]] = [
        ("/agents", {"slug": "nuevo"}),
        (f"/agents/{tenant.agent_slug}/draft", {"instructions": "otra cosa"}),
        (f"/agents/{tenant.agent_slug}/publish", {}),
        (f"/agents/{tenant.agent_slug}/chat", {"message": "hola"}),
        ("/keys", {"scopes": ["chat"]}),
        ("/knowledge", {"name": "kb"}),
        ("/usage/budget", {"budget_usd": "1"}),
        (f"/evaluation/{tenant.agent_slug}/cases", {"input": "hola", "contains": "x"}),
        (f"/evaluation/{tenant.agent_slug}/run", {}),
        ("/conversations/any/handoff", {}),
        ("/conversations/any/reply", {"content": "hola"}),
    ]
    for path, data in writes:
        refused = client.post(base + path, data={**data, "csrf": token})
        assert refused.status_code == 403, path
    with session_scope() as session:
        assert session.scalars(select(Agent.draft)).one() == draft_before
        assert session.scalar(select(func.count()).select_from(Agent)) == 1
    assert _key_count() == keys_before


@pytest.mark.parametrize("section", SECTIONS)
def test_another_workspace_is_not_found(client: TestClient, tenant: Tenant, section: str) -> None:
    other = make_tenant("globex", slug="otro")
    make_user("ana", tenant.workspace_id, "owner")
    log_in(client, "ana")
    response = client.get(f"/console/w/{other.workspace_id}/{section}")
    assert response.status_code == 404
    assert "No existe ese espacio de trabajo." in response.text
