"""Login throttling cannot be reset with ``X-Forwarded-For``: the header counts only from a
peer listed in ``VIGIA_TRUSTED_PROXIES``; through the ASGI app and a real uvicorn server run
as ``vigia serve`` runs it."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.conftest import serve_in_thread
from tests.errors import Response
from vigia.app import create_app
from vigia.config import get_settings
from vigia.db.session import session_scope
from vigia.http.forwarded import UVICORN_OPTIONS
from vigia.users.service import create_user

_addresses = (f"203.0.113.{i}" for i in itertools.count(1))

Post = Callable[[dict[str, str]], Response]


def _wrong_passwords(post: Post, attempts: int = 12) -> list[int]:
    """Wrong passwords for one user, each with a fresh ``X-Forwarded-For``."""
    with session_scope() as session:
        create_user(session, "olga", "correct horse battery staple")
    return [post({"X-Forwarded-For": next(_addresses)}).status_code for _ in range(attempts)]


def _login(client: httpx.Client | TestClient) -> Post:
    body = {"username": "olga", "password": "wrong password"}
    return lambda headers: client.post("/auth/login", json=body, headers=headers)


def _trust(monkeypatch: pytest.MonkeyPatch, proxies: str) -> None:
    monkeypatch.setenv("VIGIA_TRUSTED_PROXIES", proxies)
    get_settings.cache_clear()


def test_asgi_untrusted_peer_rotating_the_header_is_throttled() -> None:
    with TestClient(create_app(), client=("127.0.0.1", 4000)) as client:
        codes = _wrong_passwords(_login(client))
        refused = client.post("/auth/login", json={"username": "olga", "password": "x"})
    assert codes[:5] == [401] * 5 and 429 in codes, codes
    assert refused.status_code == 429 and refused.headers["retry-after"]


def test_asgi_listed_proxy_passes_each_client_address(monkeypatch: pytest.MonkeyPatch) -> None:
    _trust(monkeypatch, "127.0.0.1")
    with TestClient(create_app(), client=("127.0.0.1", 4000)) as client:
        assert _wrong_passwords(_login(client)) == [401] * 12


def test_uvicorn_untrusted_loopback_rotating_the_header_is_throttled() -> None:
    with (
        serve_in_thread(create_app(), **UVICORN_OPTIONS) as base,
        httpx.Client(base_url=base) as http,
    ):
        codes = _wrong_passwords(_login(http))
    assert codes[:5] == [401] * 5 and 429 in codes, codes


def test_uvicorn_listed_proxy_passes_each_client_address(monkeypatch: pytest.MonkeyPatch) -> None:
    _trust(monkeypatch, "127.0.0.0/8, ::1")
    with (
        serve_in_thread(create_app(), **UVICORN_OPTIONS) as base,
        httpx.Client(base_url=base) as http,
    ):
        assert _wrong_passwords(_login(http)) == [401] * 12
