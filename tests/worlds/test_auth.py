"""Login, logout, the session cookie, and 401 on every endpoint without it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from tests.worlds.conftest import PASSWORD

PROTECTED = [
    ("post", "/chat", {"message": "x"}),
    ("get", "/chat/stream?message=x", None),
    ("get", "/conversations", None),
    ("get", "/conversations/1", None),
    ("patch", "/conversations/1", {"title": "x"}),
    ("delete", "/conversations/1", None),
    ("post", "/conversations/1/pin", {"pinned": True}),
    ("post", "/conversations/1/share", {"username": "x"}),
    ("delete", "/conversations/1/share/x", None),
    ("post", "/qa/run", {"question": "x"}),
    ("post", "/troubleshoot/run", {"symptom": "x"}),
    ("get", "/personal/files", None),
    ("delete", "/personal/files/a.txt", None),
]


@pytest.mark.parametrize(("method", "path", "body"), PROTECTED)
def test_every_endpoint_needs_the_cookie(
    client: TestClient, method: str, path: str, body: dict[str, object] | None
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == 401 and response.json() == {"detail": "not logged in"}
    client.cookies.set("sherpa_session", "forged")
    forged = client.request(method, path, json=body)
    assert forged.status_code == 401
    assert forged.json() == {"detail": "session expired or unknown; log in again"}


def test_login_sets_httponly_lax_cookie_and_logout_ends_it(
    client: TestClient, make_user: Callable[[str], str]
) -> None:
    user_id = make_user("carol")
    response = client.post("/auth/login", json={"username": "carol", "password": PASSWORD})
    assert response.status_code == 200
    assert response.json() == {"id": user_id, "name": "carol"}
    header = response.headers["set-cookie"]
    assert header.startswith("sherpa_session=") and "HttpOnly" in header
    assert "SameSite=lax" in header or "SameSite=Lax" in header
    token = client.cookies["sherpa_session"]
    assert client.get("/conversations").status_code == 200
    assert client.post("/auth/logout").json() == {"ok": True}
    client.cookies.set("sherpa_session", token)
    ended = client.get("/conversations")
    assert ended.status_code == 401
    assert ended.json() == {"detail": "session expired or unknown; log in again"}


@pytest.mark.parametrize(
    "body",
    [
        {"username": "carol", "password": "wrong password"},
        {"username": "nobody", "password": PASSWORD},
    ],
)
def test_bad_credentials_are_401(
    client: TestClient, make_user: Callable[[str], str], body: dict[str, str]
) -> None:
    make_user("carol")
    response = client.post("/auth/login", json=body)
    assert response.status_code == 401
    assert response.json() == {"detail": "invalid username or password"}
    assert "set-cookie" not in response.headers


def test_login_body_is_validated(client: TestClient) -> None:
    missing = client.post("/auth/login", json={"username": "a"})
    assert missing.status_code == 422
    assert [e["loc"] for e in missing.json()["detail"]] == [["body", "password"]]
    too_long = client.post("/auth/login", json={"username": "a" * 65, "password": "x"})
    assert too_long.status_code == 422
    assert [e["type"] for e in too_long.json()["detail"]] == ["string_too_long"]
