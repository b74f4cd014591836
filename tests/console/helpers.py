"""Console test helpers: users with roles, a client logged in through the login form, and
a customer's turn through the API."""

from __future__ import annotations

import re

import httpx
from fastapi.testclient import TestClient

from vigia.db.session import session_scope
from vigia.users import roles
from vigia.users.service import create_user

PASSWORD = "a long console password"
CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def make_user(name: str, workspace_id: str, role: str) -> None:
    with session_scope() as session:
        user = create_user(session, name, PASSWORD)
        roles.grant(session, user.id, workspace_id, role)


def csrf_of(client: TestClient, path: str = "/console/login") -> str:
    """The CSRF token a page's forms carry (the cookie is set on the client by the GET)."""
    found = CSRF.search(client.get(path).text)
    assert found, f"no csrf field on {path}"
    return found.group(1)


def log_in(client: TestClient, name: str) -> str:
    """Logs ``name`` in through the form; returns the CSRF token for later posts."""
    token = csrf_of(client)
    response = client.post(
        "/console/login",
        data={"username": name, "password": PASSWORD, "csrf": token},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    return token


def customer_says(
    server: str, key: str, model: str, text: str, conversation: str | None = None
) -> str:
    """A customer's turn through ``/v1/chat/completions``; its conversation's id."""
    body: dict[str, object] = {"model": model, "messages": [{"role": "user", "content": text}]}
    if conversation:
        body["conversation_id"] = conversation
    answer = httpx.post(
        f"{server}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json=body,
        timeout=120,
    )
    assert answer.status_code == 200, answer.text
    return str(answer.json()["sherlock"]["conversation_id"])
