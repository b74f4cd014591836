"""The admin-token theft of issue 34 through the console agent form and the playground, and
the workspace's model secrets managed from the console (names shown, values never)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.chat_calls import ADMIN
from tests.conftest import ADMIN_TOKEN, Tenant
from tests.console.helpers import log_in, make_user
from tests.recording_upstream import recording_upstream
from vigia.agents.models import Agent
from vigia.config import get_settings
from vigia.db.session import session_scope

SECRET = "sk-console-secret-0123456789"


@pytest.fixture
def upstream() -> Iterator[tuple[str, list[str]]]:
    with recording_upstream() as recorded:
        yield recorded


@pytest.fixture
def admin(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    """A workspace admin logged in (base path, CSRF token); the operator listed loopback."""
    path = f"/admin/workspaces/{tenant.workspace_name}/tool-hosts"
    assert client.put(path, json={"hosts": ["127.0.0.1"]}, headers=ADMIN).status_code == 200
    make_user("eva", tenant.workspace_id, "admin")
    return f"/console/w/{tenant.workspace_id}", log_in(client, "eva")


def _form(token: str, **model: str) -> dict[str, Any]:
    return {
        "csrf": token,
        "name": "Asistente",
        "instructions": "Atendemos de lunes a viernes de 9 a 18 horas.",
        "language": "es",
        "model_provider": "openai",
        "model_name": "gpt-4o-mini",
        "guardrail_grounding": "off",
        **{f"model_{k}": v for k, v in model.items()},
    }


def _play(client: TestClient, base: str, tenant: Tenant, token: str) -> Any:
    return client.post(
        f"{base}/agents/{tenant.agent_slug}/chat",
        data={"csrf": token, "message": "hola", "env": "draft"},
    )


def _draft() -> dict[str, Any]:
    with session_scope() as session:
        return dict(session.scalars(select(Agent.draft)).one())


def test_the_agent_form_refuses_a_server_setting_as_key_and_the_playground_sends_nothing(
    client: TestClient,
    tenant: Tenant,
    admin: tuple[str, str],
    upstream: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base, token = admin
    url, seen = upstream
    monkeypatch.setenv("VIGIA_MODEL_KEY_ENVS", "VIGIA_ADMIN_TOKEN")
    get_settings.cache_clear()
    before = _draft()
    form = _form(token, base_url=url, api_key_env="VIGIA_ADMIN_TOKEN")
    refused = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert refused.status_code == 422
    assert "El modelo no se puede usar así" in refused.text
    assert _draft() == before
    played = _play(client, base, tenant, token)
    assert played.status_code == 200  # the draft kept its embedded model
    assert seen == []
    assert ADMIN_TOKEN not in played.text


def test_the_agent_form_refuses_an_unlisted_address(
    client: TestClient, tenant: Tenant, admin: tuple[str, str]
) -> None:
    base, token = admin
    for url in ("http://169.254.169.254/v1", "http://10.0.0.1/v1", "http://localhost:1/v1"):
        refused = client.post(
            f"{base}/agents/{tenant.agent_slug}/draft", data=_form(token, base_url=url)
        )
        assert refused.status_code == 422 and "El modelo no se puede usar así" in refused.text


def test_a_stored_legacy_config_fails_the_playground_turn_and_sends_nothing(
    client: TestClient,
    tenant: Tenant,
    admin: tuple[str, str],
    upstream: tuple[str, list[str]],
) -> None:
    base, token = admin
    url, seen = upstream
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = {"provider": "openai", "name": "gpt-4o-mini", "base_url": url}
        agent.draft = {**agent.draft, "model": {**model, "api_key_env": "VIGIA_ADMIN_TOKEN"}}
    played = _play(client, base, tenant, token)
    assert played.status_code == 502
    assert seen == [] and ADMIN_TOKEN not in played.text


def test_a_console_secret_is_chosen_by_name_and_never_shown(
    client: TestClient,
    tenant: Tenant,
    admin: tuple[str, str],
    upstream: tuple[str, list[str]],
) -> None:
    base, token = admin
    url, seen = upstream
    saved = client.post(f"{base}/secrets", data={"csrf": token, "name": "OPENAI", "value": SECRET})
    assert saved.status_code == 200 and saved.url.path == f"{base}/keys"
    assert "OPENAI" in saved.text and SECRET not in saved.text
    page = client.get(f"{base}/agents/{tenant.agent_slug}").text
    assert '<option value="OPENAI">OPENAI</option>' in page and SECRET not in page
    form = _form(token, base_url=url, api_key_secret="OPENAI")
    stored = client.post(f"{base}/agents/{tenant.agent_slug}/draft", data=form)
    assert stored.status_code == 200 and SECRET not in stored.text
    assert _draft()["model"]["api_key_secret"] == "OPENAI"
    played = _play(client, base, tenant, token)
    assert played.status_code == 200 and "respuesta de prueba" in played.text
    assert seen == [f"Bearer {SECRET}"]
    bad = client.post(f"{base}/secrets", data={"csrf": token, "name": "1x", "value": "v"})
    assert bad.status_code == 422 and "sin empezar por un dígito" in bad.text
    assert 'name="name" required value="1x"' in bad.text
    gone = client.post(f"{base}/secrets/OPENAI/delete", data={"csrf": token})
    assert gone.status_code == 200 and "Todavía no hay secretos." in gone.text


def test_an_operator_cannot_manage_secrets(client: TestClient, tenant: Tenant) -> None:
    make_user("oli", tenant.workspace_id, "operator")
    token = log_in(client, "oli")
    base = f"/console/w/{tenant.workspace_id}"
    refused = client.post(f"{base}/secrets", data={"csrf": token, "name": "X", "value": "v"})
    assert refused.status_code == 403
