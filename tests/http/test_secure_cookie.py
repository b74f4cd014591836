"""The session and CSRF cookies are ``Secure`` whenever the request came over HTTPS: directly,
or as a trusted proxy's ``X-Forwarded-Proto`` says; ``VIGIA_COOKIE_SECURE`` forces it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from vigia.app import create_app
from vigia.config import get_settings
from vigia.db.session import session_scope
from vigia.users.service import create_user

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _olga() -> None:
    with session_scope() as session:
        create_user(session, "olga", PASSWORD)


def _cookies(client: TestClient, headers: dict[str, str] | None = None) -> list[str]:
    """The ``Set-Cookie`` lines of a worlds login and of the console's login page."""
    body = {"username": "olga", "password": PASSWORD}
    login = client.post("/auth/login", json=body, headers=headers)
    assert login.status_code == 200, login.text
    page = client.get("/console/login", headers=headers)
    lines = login.headers.get_list("set-cookie") + page.headers.get_list("set-cookie")
    assert {line.split("=", 1)[0] for line in lines} == {"sherpa_session", "vigia_csrf"}, lines
    return lines


def _secure(line: str) -> bool:
    return "secure" in [part.strip().lower() for part in line.split(";")]


def _settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()


def test_plain_http_cookies_are_not_secure(client: TestClient) -> None:
    assert not any(_secure(line) for line in _cookies(client))


def test_https_cookies_are_secure() -> None:
    with TestClient(create_app(), base_url="https://testserver") as client:
        assert all(_secure(line) for line in _cookies(client))


def test_a_trusted_proxy_saying_https_makes_them_secure(monkeypatch: pytest.MonkeyPatch) -> None:
    _settings(monkeypatch, VIGIA_TRUSTED_PROXIES="127.0.0.1")
    with TestClient(create_app(), client=("127.0.0.1", 4000)) as client:
        assert all(_secure(line) for line in _cookies(client, {"X-Forwarded-Proto": "https"}))


def test_an_untrusted_peer_saying_https_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    _settings(monkeypatch, VIGIA_TRUSTED_PROXIES="10.0.0.0/8")
    with TestClient(create_app(), client=("127.0.0.1", 4000)) as client:
        assert not any(_secure(line) for line in _cookies(client, {"X-Forwarded-Proto": "https"}))


def test_the_setting_forces_secure(monkeypatch: pytest.MonkeyPatch) -> None:
    _settings(monkeypatch, VIGIA_COOKIE_SECURE="true")
    with TestClient(create_app()) as client:
        assert all(_secure(line) for line in _cookies(client))
