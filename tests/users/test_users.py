"""The one user store: roles per workspace, idle sessions, password changes, the CLI."""

from __future__ import annotations

import json
from datetime import UTC, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from tests.conftest import Tenant
from vigia.db.base import utcnow
from vigia.db.session import session_scope
from vigia.errors import Invalid, Unauthorized
from vigia.users import roles
from vigia.users.cli import user_app
from vigia.users.models import UserSession
from vigia.users.service import create_user, find_user, login, set_password, user_for_token

PASSWORD = "correct horse battery"


def test_roles_are_per_workspace_and_replace_each_other(tenant: Tenant) -> None:
    with session_scope() as session:
        user = create_user(session, "olga", PASSWORD)
        assert roles.role_in(session, user.id, tenant.workspace_id) is None
        roles.grant(session, user.id, tenant.workspace_id, "operator")
        roles.grant(session, user.id, tenant.workspace_id, "viewer")
        assert roles.role_in(session, user.id, tenant.workspace_id) == "viewer"
        assert roles.memberships(session, user.id) == [
            roles.Membership(tenant.workspace_id, "viewer")
        ]
        with pytest.raises(Invalid, match="role must be one of"):
            roles.grant(session, user.id, tenant.workspace_id, "root")
        roles.revoke(session, user.id, tenant.workspace_id)
        assert roles.role_in(session, user.id, tenant.workspace_id) is None


def test_what_each_role_allows() -> None:
    table = {
        role: [
            p
            for p in ("configure", "operate", "read_all", "read_conversations")
            if roles.allows(role, p)
        ]
        for role in (*roles.ROLES, "stranger")
    }
    assert table == {
        "owner": ["configure", "operate", "read_all", "read_conversations"],
        "admin": ["configure", "operate", "read_all", "read_conversations"],
        "operator": ["operate", "read_conversations"],
        "viewer": ["read_all", "read_conversations"],
        "stranger": [],
    }


def _last_used(minutes_ago: int) -> None:
    with session_scope() as session:
        record = session.scalars(select(UserSession)).one()
        record.last_seen_at = utcnow() - timedelta(minutes=minutes_ago)


def test_a_session_unused_past_the_idle_limit_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGIA_SESSION_IDLE_MINUTES", "30")
    with session_scope() as session:
        create_user(session, "ines", PASSWORD)
        _, token = login(session, "ines", PASSWORD, "127.0.0.1")
    _last_used(29)
    with session_scope() as session:
        assert user_for_token(session, token).name == "ines"  # used: the idle clock restarts
    with session_scope() as session:
        seen = session.scalars(select(UserSession.last_seen_at)).one()
        assert seen is not None and utcnow() - seen.replace(tzinfo=UTC) < timedelta(minutes=1)
    _last_used(31)
    with session_scope() as session, pytest.raises(Unauthorized, match="session expired"):
        user_for_token(session, token)


def test_changing_the_password_ends_every_session(client: TestClient) -> None:
    with session_scope() as session:
        create_user(session, "jose", PASSWORD)
    assert (
        client.post("/auth/login", json={"username": "jose", "password": PASSWORD}).status_code
        == 200
    )
    assert client.get("/conversations").status_code == 200
    with session_scope() as session:
        user = find_user(session, "jose")
        assert user is not None
        set_password(session, user, "another long password")
    assert client.get("/conversations").json() == {
        "detail": "session expired or unknown; log in again"
    }
    refused = client.post("/auth/login", json={"username": "jose", "password": PASSWORD})
    assert refused.status_code == 401


def test_cli_creates_a_user_with_a_role_and_grants_another(tenant: Tenant) -> None:
    runner = CliRunner()
    created = runner.invoke(
        user_app,
        [
            "create",
            "pia",
            "--password-stdin",
            "--workspace",
            "acme",
            "--role",
            "operator",
            "--json",
        ],
        input=PASSWORD + "\n",
    )
    assert created.exit_code == 0, created.output
    payload = json.loads(created.stdout)
    assert {k: payload[k] for k in ("name", "workspace", "role")} == {
        "name": "pia",
        "workspace": "acme",
        "role": "operator",
    }
    granted = runner.invoke(
        user_app, ["grant", "pia", "--workspace", "acme", "--role", "admin", "--json"]
    )
    assert json.loads(granted.stdout) == {"name": "pia", "workspace": "acme", "role": "admin"}
    unknown = runner.invoke(
        user_app, ["grant", "nadie", "--workspace", "acme", "--role", "admin", "--json"]
    )
    assert unknown.exit_code == 1
    assert json.loads(unknown.stdout) == {"detail": "user 'nadie' not found", "error": "not_found"}
    bad_role = runner.invoke(
        user_app, ["grant", "pia", "--workspace", "acme", "--role", "god", "--json"]
    )
    assert bad_role.exit_code == 1 and json.loads(bad_role.stdout)["error"] == "invalid"
    with session_scope() as session:
        user = find_user(session, "pia")
        assert user is not None
        assert roles.role_in(session, user.id, tenant.workspace_id) == "admin"
