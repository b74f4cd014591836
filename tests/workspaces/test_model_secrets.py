"""Model settings cannot name the server's secrets or reach hosts the workspace does not
list: the admin-token theft of issue 34 replayed through the admin API, stored legacy
configurations, egress of ``base_url``, and workspace secrets end to end."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from tests.chat_calls import ADMIN, chat
from tests.conftest import ADMIN_TOKEN, Tenant, make_tenant
from tests.recording_upstream import recording_upstream
from vigia.agents.models import Agent, AgentVersion
from vigia.config import get_settings
from vigia.db.session import session_scope
from vigia.engine.models import Run
from vigia.errors import VigiaError
from vigia.llm.mock_upstream import DEFAULT_TEXT
from vigia.workspaces.secrets import secret_value, set_secret, unseal

SECRET = "sk-workspace-0123456789abcdef"


@pytest.fixture
def upstream() -> Iterator[tuple[str, list[str]]]:
    with recording_upstream() as recorded:
        yield recorded


def _agent(tenant: Tenant) -> str:
    return f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"


def _hosts(client: TestClient, tenant: Tenant, *hosts: str) -> None:
    path = f"/admin/workspaces/{tenant.workspace_name}/tool-hosts"
    assert client.put(path, json={"hosts": list(hosts)}, headers=ADMIN).status_code == 200


def _use(client: TestClient, tenant: Tenant, **model: Any) -> Any:
    body = {
        "model": {"provider": "openai", "name": "gpt-4o-mini", **model},
        "guardrails": {"grounding": "off"},
    }
    return client.patch(_agent(tenant), json=body, headers=ADMIN)


def _publish(client: TestClient, tenant: Tenant) -> None:
    assert client.post(f"{_agent(tenant)}/publish", headers=ADMIN).status_code == 200


def _secret(client: TestClient, workspace: str, name: str, value: str) -> Any:
    path = f"/admin/workspaces/{workspace}/secrets/{name}"
    return client.put(path, json={"value": value}, headers=ADMIN)


def _store_legacy(tenant: Tenant, model: dict[str, Any]) -> None:
    """Writes ``model`` into the agent's draft and a published version, bypassing every
    check (a configuration saved before them)."""
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        draft = dict(agent.draft)
        draft["model"] = model
        draft["guardrails"] = {**draft["guardrails"], "grounding": "off"}
        agent.draft = draft
        number = (agent.published_version or 0) + 1
        session.add(AgentVersion(agent_id=agent.id, number=number, config=draft))
        agent.published_version = number


def test_the_admin_token_theft_through_the_admin_api_is_refused(
    client: TestClient,
    tenant: Tenant,
    upstream: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = upstream
    _hosts(client, tenant, "127.0.0.1")
    monkeypatch.setenv("VIGIA_MODEL_KEY_ENVS", "VIGIA_ADMIN_TOKEN,OPENAI_KEY")
    get_settings.cache_clear()
    for variable in ("VIGIA_ADMIN_TOKEN", "vigia_admin_token", "VIGIA_SECRET_KEY", "HOME"):
        refused = _use(client, tenant, base_url=url, api_key_env=variable)
        assert refused.status_code == 422, variable
        assert variable in refused.json()["detail"]
    _publish(client, tenant)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 200 and body["choices"][0]["message"]["content"]  # embedded model
    assert seen == []
    assert all(ADMIN_TOKEN not in header for header in seen)


def test_a_listed_key_variable_reaches_the_upstream(
    client: TestClient,
    tenant: Tenant,
    upstream: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, seen = upstream
    monkeypatch.setenv("VIGIA_MODEL_KEY_ENVS", "OPENAI_KEY")
    monkeypatch.setenv("OPENAI_KEY", "sk-operator-key")
    get_settings.cache_clear()
    _hosts(client, tenant, "127.0.0.1")
    assert _use(client, tenant, base_url=url, api_key_env="OPENAI_KEY").status_code == 200
    _publish(client, tenant)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 200 and body["choices"][0]["message"]["content"].strip() == DEFAULT_TEXT
    assert seen == ["Bearer sk-operator-key"]


@pytest.mark.parametrize("variable", ["VIGIA_ADMIN_TOKEN", "vigia_admin_token"])
def test_a_stored_legacy_config_naming_a_server_setting_sends_nothing(
    client: TestClient,
    tenant: Tenant,
    upstream: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
) -> None:
    url, seen = upstream
    monkeypatch.setenv("VIGIA_MODEL_KEY_ENVS", variable)
    get_settings.cache_clear()
    _hosts(client, tenant, "127.0.0.1")
    _store_legacy(
        tenant,
        {"provider": "openai", "name": "gpt-4o-mini", "base_url": url, "api_key_env": variable},
    )
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 502, body
    assert "server's own settings" in str(body)
    assert seen == []
    with session_scope() as session:
        runs = session.scalars(select(Run).where(Run.agent_id == tenant.agent_id)).all()
        assert runs and runs[-1].status == "error"


@pytest.mark.parametrize(
    "base_url",
    [
        "http://127.0.0.1:9/v1",
        "http://169.254.169.254/latest",
        "http://10.0.0.1/v1",
        "http://[::1]:9/v1",
        "http://metadata.internal/v1",
        "file:///etc/passwd",
    ],
)
def test_a_base_url_outside_the_workspace_hosts_is_refused(
    client: TestClient, tenant: Tenant, base_url: str
) -> None:
    _hosts(client, tenant, "api.openai.com")
    refused = _use(client, tenant, base_url=base_url)
    assert refused.status_code == 422 and refused.json()["detail"]


def test_a_private_address_needs_an_address_entry_even_for_a_listed_name(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    """``localhost`` listed by name resolves to loopback, which only an address entry
    allows: the call is refused where it connects, and nothing is sent."""
    url, seen = upstream
    _hosts(client, tenant, "localhost")
    named = url.replace("127.0.0.1", "localhost")
    assert _use(client, tenant, base_url=named).status_code == 200
    _publish(client, tenant)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 502 and "private address" in str(body)
    assert seen == []


def test_a_stored_legacy_base_url_to_an_unlisted_host_sends_nothing(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, seen = upstream
    _store_legacy(tenant, {"provider": "openai", "name": "gpt-4o-mini", "base_url": url})
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 502 and "not in the workspace's" in str(body)
    assert seen == []


def test_a_listed_loopback_upstream_works(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, seen = upstream
    _hosts(client, tenant, "127.0.0.1")
    assert _use(client, tenant, base_url=url).status_code == 200
    _publish(client, tenant)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 200 and body["choices"][0]["message"]["content"].strip() == DEFAULT_TEXT
    assert seen == [""]


def test_a_workspace_secret_reaches_only_its_own_workspaces_upstream(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, seen = upstream
    _hosts(client, tenant, "127.0.0.1")
    assert _secret(client, tenant.workspace_name, "OPENAI", SECRET).status_code == 200
    assert _use(client, tenant, base_url=url, api_key_secret="OPENAI").status_code == 200
    _publish(client, tenant)
    status, _ = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 200 and seen == [f"Bearer {SECRET}"]

    other = make_tenant(name="other")
    _hosts(client, other, "127.0.0.1")
    refused = _use(client, other, base_url=url, api_key_secret="OPENAI")
    assert refused.status_code == 422 and "no secret 'OPENAI'" in refused.json()["detail"]
    # Stored anyway (a legacy row): the other workspace's secret of that name is never used.
    model = {"provider": "openai", "name": "gpt-4o-mini", "base_url": url}
    _store_legacy(other, {**model, "api_key_secret": "OPENAI"})
    status, _ = chat(client, other.production_key, other.agent_slug, "hola")
    assert status == 502 and seen == [f"Bearer {SECRET}"]
    assert _secret(client, other.workspace_name, "OPENAI", "sk-other-workspace").is_success
    status, _ = chat(client, other.production_key, other.agent_slug, "hola")
    assert status == 200 and seen[-1] == "Bearer sk-other-workspace"


def test_secrets_are_encrypted_at_rest_and_never_shown_back(
    client: TestClient, tenant: Tenant
) -> None:
    assert _secret(client, tenant.workspace_name, "OPENAI", SECRET).status_code == 200
    assert _secret(client, tenant.workspace_name, "OPENAI", SECRET + "x").status_code == 200
    listed = client.get(f"/admin/workspaces/{tenant.workspace_name}/secrets", headers=ADMIN)
    assert listed.status_code == 200
    assert [s["name"] for s in listed.json()["secrets"]] == ["OPENAI"]
    assert set(listed.json()["secrets"][0]) == {"name", "created_at", "updated_at"}
    for path in ("", "/secrets", "/agents", f"/agents/{tenant.agent_slug}"):
        page = client.get(f"/admin/workspaces/{tenant.workspace_name}{path}", headers=ADMIN)
        assert SECRET not in page.text
    with session_scope() as session:
        rows = session.execute(text("SELECT * FROM workspace_secrets")).all()
    assert len(rows) == 1
    assert all(
        SECRET.encode() not in (c if isinstance(c, bytes) else str(c).encode()) for c in rows[0]
    )
    gone = client.delete(f"/admin/workspaces/{tenant.workspace_name}/secrets/OPENAI", headers=ADMIN)
    assert gone.json() == {"name": "OPENAI", "deleted": True}
    listed = client.get(f"/admin/workspaces/{tenant.workspace_name}/secrets", headers=ADMIN)
    assert listed.json() == {"secrets": []}


@pytest.mark.parametrize(
    ("name", "value"),
    [("1BAD", "v"), ("has space", "v"), ("OK", ""), ("OK", "a b"), ("OK", "x" * 4097), ("OK", "ñ")],
)
def test_bad_secret_names_and_values_are_422(
    client: TestClient, tenant: Tenant, name: str, value: str
) -> None:
    answer = _secret(client, tenant.workspace_name, name, value)
    assert answer.status_code == 422, answer.text
    assert client.get(
        f"/admin/workspaces/{tenant.workspace_name}/secrets", headers=ADMIN
    ).json() == {"secrets": []}


def test_secrets_need_the_admin_token(client: TestClient, tenant: Tenant) -> None:
    key = {"Authorization": f"Bearer {tenant.production_key}"}
    path = f"/admin/workspaces/{tenant.workspace_name}/secrets"
    assert client.get(path, headers=key).status_code == 401
    assert client.put(path + "/X", json={"value": "v"}, headers=key).status_code == 401


def test_the_generated_server_key_is_private_and_a_given_one_is_used(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _secret(client, tenant.workspace_name, "OPENAI", SECRET).status_code == 200
    generated = get_settings().data_dir / "secret_key"
    assert generated.stat().st_mode & 0o777 == 0o600
    monkeypatch.setenv("VIGIA_SECRET_KEY", base64.b64encode(b"k" * 32).decode())
    get_settings.cache_clear()
    with session_scope() as session:
        with pytest.raises(VigiaError, match="cannot be decrypted"):
            secret_value(session, tenant.workspace_id, "OPENAI")  # sealed under the other key
        set_secret(session, tenant.workspace_id, "OPENAI", SECRET)
        assert secret_value(session, tenant.workspace_id, "OPENAI") == SECRET


def test_a_sealed_value_opens_only_for_its_workspace_and_name(tenant: Tenant) -> None:
    with session_scope() as session:
        row = set_secret(session, tenant.workspace_id, "OPENAI", SECRET)
        assert unseal(tenant.workspace_id, "OPENAI", row.sealed) == SECRET
        for workspace, name in (("another-workspace", "OPENAI"), (tenant.workspace_id, "OTHER")):
            with pytest.raises(VigiaError):
                unseal(workspace, name, row.sealed)
