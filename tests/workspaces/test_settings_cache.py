"""Turns read their agent, budget settings, hosts and model key from memory
(``vigia.workspaces.settings_cache``), and still see every change at the next turn: on the same
app, and on another replica sharing Redis."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select
from sqlalchemy.engine import Engine

from tests.chat_calls import ADMIN, chat
from tests.conftest import Tenant, make_tenant
from tests.recording_upstream import recording_upstream
from tests.workspaces.test_replicas import two_replicas
from vigia.agents.models import Agent
from vigia.config import get_settings
from vigia.db.base import utcnow
from vigia.db.session import session_scope
from vigia.engine.models import Run
from vigia.llm.mock_upstream import DEFAULT_TEXT
from vigia.workspaces.auth import get_key_cache


@pytest.fixture(autouse=True)
def long_lived(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries live 60 s: only a change, never their age, makes a turn read them again (and
    a slow first turn on a loaded machine expires none)."""
    for ttl in ("VIGIA_KEY_CACHE_TTL_S", "VIGIA_SETTINGS_CACHE_TTL_S"):
        monkeypatch.setenv(ttl, "60")
    get_settings.cache_clear()
    get_key_cache.cache_clear()


@pytest.fixture
def upstream() -> Iterator[tuple[str, list[str]]]:
    with recording_upstream() as recorded:
        yield recorded


def _admin(tenant: Tenant, path: str = "") -> str:
    return f"/admin/workspaces/{tenant.workspace_name}{path}"


def _on_upstream(client: TestClient, tenant: Tenant, url: str, **model: Any) -> None:
    """The tenant's agent published on the loopback upstream ``url`` (its host listed)."""
    hosts = {"hosts": ["127.0.0.1"]}
    assert client.put(_admin(tenant, "/tool-hosts"), json=hosts, headers=ADMIN).is_success
    body = {
        "model": {"provider": "openai", "name": "gpt-4o-mini", "base_url": url, **model},
        "guardrails": {"grounding": "off"},
    }
    agent = _admin(tenant, f"/agents/{tenant.agent_slug}")
    assert client.patch(agent, json=body, headers=ADMIN).status_code == 200
    assert client.post(f"{agent}/publish", headers=ADMIN).status_code == 200


def _runs() -> int:
    with session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(Run)) or 0)


def _status(client: TestClient, tenant: Tenant) -> str:
    code, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert code == 200, body
    return str(body["sherlock"]["status"])


def test_a_repeated_turn_reads_no_agent_or_workspace_row(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, _ = upstream
    _on_upstream(client, tenant, url)
    assert _status(client, tenant) == "ok"
    statements: list[str] = []

    def record(_c: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    runs_before = _runs()
    event.listen(Engine, "before_cursor_execute", record)
    try:
        assert _status(client, tenant) == "ok"
    finally:
        event.remove(Engine, "before_cursor_execute", record)
    assert [s for s in statements if s.lstrip().upper().startswith("SELECT")] == []
    assert _runs() == runs_before + 1


def test_a_changed_budget_is_seen_by_the_next_turn(client: TestClient, tenant: Tenant) -> None:
    assert _status(client, tenant) == "ok"
    paused = {"budget_usd": 0, "action": "pause"}
    assert client.put(_admin(tenant, "/budget"), json=paused, headers=ADMIN).is_success
    assert _status(client, tenant) == "budget_exceeded"
    lifted = {"budget_usd": None, "action": "pause"}
    assert client.put(_admin(tenant, "/budget"), json=lifted, headers=ADMIN).is_success
    assert _status(client, tenant) == "ok"


def test_a_changed_host_list_is_seen_by_the_next_turn(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, seen = upstream
    _on_upstream(client, tenant, url)
    assert _status(client, tenant) == "ok" and len(seen) == 1
    assert client.put(_admin(tenant, "/tool-hosts"), json={"hosts": []}, headers=ADMIN).is_success
    code, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert code == 502 and "not in the workspace's" in str(body)
    assert len(seen) == 1, "nothing was sent"


def test_a_changed_secret_is_what_the_next_turn_sends(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, seen = upstream
    secret = _admin(tenant, "/secrets/OPENAI")
    assert client.put(secret, json={"value": "sk-first-0123"}, headers=ADMIN).is_success
    _on_upstream(client, tenant, url, api_key_secret="OPENAI")
    assert _status(client, tenant) == "ok" and seen == ["Bearer sk-first-0123"]
    assert client.put(secret, json={"value": "sk-second-0123"}, headers=ADMIN).is_success
    assert _status(client, tenant) == "ok" and seen[-1] == "Bearer sk-second-0123"
    assert client.delete(secret, headers=ADMIN).is_success
    code, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert code == 502 and "no secret 'OPENAI'" in str(body)
    assert len(seen) == 2


def test_a_published_version_an_edited_draft_and_a_deleted_agent_are_seen_at_once(
    client: TestClient, tenant: Tenant, upstream: tuple[str, list[str]]
) -> None:
    url, _ = upstream
    _on_upstream(client, tenant, url)
    code, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    first = body["sherlock"]["version"]
    agent = _admin(tenant, f"/agents/{tenant.agent_slug}")
    edited = {"model": {"provider": "embedded", "name": "embedded"}}
    assert client.patch(agent, json=edited, headers=ADMIN).status_code == 200
    code, body = chat(client, tenant.draft_key, tenant.agent_slug, "hola")
    assert code == 200 and body["choices"][0]["message"]["content"].strip() != DEFAULT_TEXT
    code, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert body["sherlock"]["version"] == first, "production runs the published version"
    assert body["choices"][0]["message"]["content"].strip() == DEFAULT_TEXT
    assert client.post(f"{agent}/publish", headers=ADMIN).status_code == 200
    code, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert body["sherlock"]["version"] == first + 1
    assert body["choices"][0]["message"]["content"].strip() != DEFAULT_TEXT
    with session_scope() as session:  # as deleting it does (vigia.agents.deletion)
        row = session.get(Agent, tenant.agent_id)
        assert row is not None
        row.deleted_at = utcnow()
    code, _ = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert code == 404


def test_a_budget_set_on_one_replica_pauses_the_other_at_once(redis_url: str) -> None:
    """Both replicas have the workspace cached (for 60 s); the change answers only once the
    other replica's next turn already sees it."""
    tenant = make_tenant()
    body = {"model": tenant.agent_slug, "messages": [{"role": "user", "content": "hola"}]}
    auth = {"Authorization": f"Bearer {tenant.production_key}"}
    budget = f"/admin/workspaces/{tenant.workspace_name}/budget"

    def status(url: str) -> str:
        answer = httpx.post(f"{url}/v1/chat/completions", json=body, headers=auth, timeout=60)
        assert answer.status_code == 200, answer.text
        return str(answer.json()["sherlock"]["status"])

    with two_replicas(redis_url, VIGIA_SETTINGS_CACHE_TTL_S="60") as urls:
        for attempt in range(2):
            writer, other = urls[attempt % 2], urls[(attempt + 1) % 2]
            assert [status(url) for url in urls] == ["ok", "ok"]
            paused = {"budget_usd": 0, "action": "pause"}
            assert httpx.put(f"{writer}{budget}", json=paused, headers=ADMIN).is_success
            assert status(other) == "budget_exceeded", attempt
            lifted = {"budget_usd": None, "action": "pause"}
            assert httpx.put(f"{writer}{budget}", json=lifted, headers=ADMIN).is_success
            assert status(other) == "ok", attempt
