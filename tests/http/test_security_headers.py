"""Security headers on every response, ``no-store`` on the ones carrying secrets, streams intact."""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN
from tests.conftest import Tenant, serve_in_thread
from vigia.db.session import session_scope
from vigia.llm.mock_upstream import create_mock
from vigia.users.service import create_user

EXPECTED = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy": "frame-ancestors 'none'",
}


def assert_secured(headers: Mapping[str, str], cache_control: str = "no-store") -> None:
    for name, value in EXPECTED.items():
        assert headers.get(name) == value, name
    assert headers.get("cache-control") == cache_control


def test_key_creation_is_not_stored_by_caches(client: TestClient, tenant: Tenant) -> None:
    response = client.post(
        f"/admin/workspaces/{tenant.workspace_name}/keys", headers=ADMIN, json={}
    )
    assert response.status_code == 201 and response.json()["key"].startswith("sk-vigia-")
    assert_secured(response.headers)


def test_login_is_not_stored_by_caches(client: TestClient) -> None:
    with session_scope() as session:
        create_user(session, "carla", "correct horse battery")
    response = client.post(
        "/auth/login", json={"username": "carla", "password": "correct horse battery"}
    )
    assert response.status_code == 200 and "sherpa_session" in response.headers["set-cookie"]
    assert_secured(response.headers)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("get", "/healthz", 200),
        ("get", "/v1/models", 401),
        ("get", "/no/such/route", 404),
        ("post", "/admin/workspaces", 401),
    ],
)
def test_every_response_carries_them(
    client: TestClient, method: str, path: str, status: int
) -> None:
    response = client.request(method, path)
    assert response.status_code == status
    assert_secured(response.headers)


def test_a_refused_oversized_body_carries_them(client: TestClient, tenant: Tenant) -> None:
    response = client.post(
        "/v1/chat/completions",
        content=b"x" * (3 * 1024 * 1024),
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    assert response.status_code == 413
    assert_secured(response.headers)


@pytest.fixture
def slow_upstream() -> Iterator[str]:
    text = "Primera frase de la respuesta. Segunda frase un poco después. Y una tercera al final."
    with serve_in_thread(create_mock(text=text, chunk_delay_s=0.05)) as url:
        yield url + "/v1"


def test_streams_still_arrive_piece_by_piece(
    live_server: str, tenant: Tenant, slow_upstream: str
) -> None:
    agent = f"{live_server}/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    patch = {
        "model": {"provider": "openai", "name": "gpt-4o-mini", "base_url": slow_upstream},
        "guardrails": {"grounding": "off"},
    }
    workspace = f"{live_server}/admin/workspaces/{tenant.workspace_name}"
    hosts = {"hosts": ["127.0.0.1"]}
    assert httpx.put(workspace + "/tool-hosts", headers=ADMIN, json=hosts).is_success
    assert httpx.patch(agent, headers=ADMIN, json=patch).status_code == 200
    assert httpx.post(f"{agent}/publish", headers=ADMIN).status_code == 200
    body = {
        "model": tenant.agent_slug,
        "stream": True,
        "messages": [{"role": "user", "content": "hola"}],
    }
    arrivals: list[float] = []
    with httpx.stream(
        "POST",
        f"{live_server}/v1/chat/completions",
        json=body,
        timeout=30,
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    ) as stream:
        assert stream.status_code == 200
        assert_secured(stream.headers, cache_control="no-cache")  # the route's own
        for line in stream.iter_lines():
            if line.startswith("data: ") and '"content"' in line:
                arrivals.append(time.monotonic())
    assert len(arrivals) >= 3
    assert arrivals[-1] - arrivals[0] > 0.3, "sentences arrive as the upstream writes them"
