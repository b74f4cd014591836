"""The users page: owners and admins add users, change roles, disable accounts and set
passwords; who may change whom (``vigia.users.management``); operators and viewers get 403."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.console.helpers import PASSWORD, csrf_of, log_in, make_user
from vigia.db.session import session_scope
from vigia.users import roles
from vigia.users.service import find_user
from vigia.workspaces.models import Workspace


def _user_id(name: str) -> str:
    with session_scope() as session:
        user = find_user(session, name)
        assert user is not None
        return user.id


def _role(name: str, workspace_id: str) -> str | None:
    with session_scope() as session:
        return roles.role_in(session, _user_id(name), workspace_id)


def _can_log_in(app_client: TestClient, name: str, password: str = PASSWORD) -> bool:
    fresh = TestClient(app_client.app)
    token = csrf_of(fresh)
    response = fresh.post(
        "/console/login",
        data={"username": name, "password": password, "csrf": token},
        follow_redirects=False,
    )
    return response.status_code == 303


def _as(client: TestClient, tenant: Tenant, role: str) -> tuple[str, str]:
    make_user("ana", tenant.workspace_id, role)
    return f"/console/w/{tenant.workspace_id}", log_in(client, "ana")


def test_an_owner_adds_a_user_changes_the_role_and_sees_it(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _as(client, tenant, "owner")
    created = client.post(
        f"{base}/users",
        data={"csrf": token, "name": "beto", "password": "una clave larga", "role": "operator"},
    )
    assert created.status_code == 200 and "Usuario creado: beto" in created.text
    assert _role("beto", tenant.workspace_id) == "operator"
    assert _can_log_in(client, "beto", "una clave larga")
    changed = client.post(
        f"{base}/users/{_user_id('beto')}/role", data={"csrf": token, "role": "admin"}
    )
    assert "Rol cambiado: beto" in changed.text
    assert _role("beto", tenant.workspace_id) == "admin"
    row = re.search(r'<tr data-user="beto">.*?</tr>', changed.text, re.S)
    assert row and '<option value="admin" selected>administración</option>' in row.group(0)


def test_a_refused_new_user_keeps_the_name_and_says_why_in_spanish(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _as(client, tenant, "owner")
    short = client.post(
        f"{base}/users", data={"csrf": token, "name": "beto", "password": "corta", "role": "viewer"}
    )
    assert short.status_code == 422
    assert "Al menos 8 caracteres." in short.text and 'value="beto"' in short.text
    assert 'value="corta"' not in short.text  # a password is never written back
    bad = client.post(
        f"{base}/users",
        data={"csrf": token, "name": "con espacios", "password": PASSWORD, "role": "viewer"},
    )
    assert bad.status_code == 422 and "Letras, dígitos y . _ @ -" in bad.text
    taken = client.post(
        f"{base}/users", data={"csrf": token, "name": "ana", "password": PASSWORD, "role": "viewer"}
    )
    assert taken.status_code == 409 and "Ya hay un usuario con ese nombre." in taken.text


def test_disabling_ends_the_sessions_and_enabling_gives_the_account_back(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _as(client, tenant, "admin")
    make_user("beto", tenant.workspace_id, "viewer")
    beto = TestClient(client.app)
    log_in(beto, "beto")
    assert beto.get(f"{base}/agents").status_code == 200
    disabled = client.post(f"{base}/users/{_user_id('beto')}/disable", data={"csrf": token})
    assert "Usuario deshabilitado: beto" in disabled.text and "deshabilitado</td>" in disabled.text
    assert beto.get(f"{base}/agents", follow_redirects=False).status_code == 303  # to login
    assert not _can_log_in(client, "beto")
    client.post(f"{base}/users/{_user_id('beto')}/disable", data={"csrf": token, "enable": "on"})
    assert _can_log_in(client, "beto") and _role("beto", tenant.workspace_id) == "viewer"


def test_a_new_password_replaces_the_old_one(client: TestClient, tenant: Tenant) -> None:
    base, token = _as(client, tenant, "owner")
    make_user("beto", tenant.workspace_id, "operator")
    short = client.post(
        f"{base}/users/{_user_id('beto')}/password", data={"csrf": token, "password": "x"}
    )
    assert short.status_code == 422 and "Al menos 8 caracteres." in short.text
    done = client.post(
        f"{base}/users/{_user_id('beto')}/password",
        data={"csrf": token, "password": "otra clave larga"},
    )
    assert "Contraseña cambiada: beto" in done.text
    assert not _can_log_in(client, "beto") and _can_log_in(client, "beto", "otra clave larga")


def test_an_admin_cannot_grant_or_change_an_owner(client: TestClient, tenant: Tenant) -> None:
    base, token = _as(client, tenant, "admin")
    make_user("duena", tenant.workspace_id, "owner")
    make_user("beto", tenant.workspace_id, "viewer")
    page = client.get(f"{base}/users").text
    assert '<option value="owner"' not in page
    promoted = client.post(
        f"{base}/users/{_user_id('beto')}/role", data={"csrf": token, "role": "owner"}
    )
    assert promoted.status_code == 403 and "Solo quien es dueño" in promoted.text
    demoted = client.post(
        f"{base}/users/{_user_id('duena')}/role", data={"csrf": token, "role": "viewer"}
    )
    assert demoted.status_code == 403
    disabled = client.post(f"{base}/users/{_user_id('duena')}/disable", data={"csrf": token})
    assert disabled.status_code == 403 and _can_log_in(client, "duena")
    assert _role("beto", tenant.workspace_id) == "viewer"
    assert _role("duena", tenant.workspace_id) == "owner"


def test_nobody_changes_their_own_role_or_disables_themselves(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _as(client, tenant, "owner")
    me = _user_id("ana")
    refused = client.post(f"{base}/users/{me}/role", data={"csrf": token, "role": "viewer"})
    assert refused.status_code == 403 and "No podés cambiar tu propio rol" in refused.text
    assert client.post(f"{base}/users/{me}/disable", data={"csrf": token}).status_code == 403
    assert _role("ana", tenant.workspace_id) == "owner"


def test_an_account_in_a_workspace_the_admin_does_not_run_keeps_its_password(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _as(client, tenant, "admin")
    make_user("beto", tenant.workspace_id, "viewer")
    with session_scope() as session:
        other = Workspace(name="otra")
        session.add(other)
        session.flush()
        roles.grant(session, _user_id("beto"), other.id, "owner")
    refused = client.post(
        f"{base}/users/{_user_id('beto')}/password",
        data={"csrf": token, "password": "me quedo con tu cuenta"},
    )
    assert refused.status_code == 403 and "espacios que no administrás" in refused.text
    assert _can_log_in(client, "beto")


def test_a_user_of_another_workspace_is_not_found(client: TestClient, tenant: Tenant) -> None:
    base, token = _as(client, tenant, "owner")
    with session_scope() as session:
        other = Workspace(name="otra")
        session.add(other)
        session.flush()
        other_id = other.id
    make_user("ajena", other_id, "viewer")
    response = client.post(f"{base}/users/{_user_id('ajena')}/disable", data={"csrf": token})
    assert response.status_code == 404 and _can_log_in(client, "ajena")


@pytest.mark.parametrize("role", ["operator", "viewer"])
def test_operators_and_viewers_get_403(client: TestClient, tenant: Tenant, role: str) -> None:
    base, token = _as(client, tenant, role)
    make_user("beto", tenant.workspace_id, "viewer")
    assert client.get(f"{base}/users").status_code == 403
    assert 'href="' + base + '/users"' not in client.get(f"{base}/conversations").text
    posted = client.post(f"{base}/users", data={"csrf": token, "name": "eva", "password": PASSWORD})
    assert posted.status_code == 403
    assert (
        client.post(f"{base}/users/{_user_id('beto')}/disable", data={"csrf": token}).status_code
        == 403
    )
    with session_scope() as session:
        assert find_user(session, "eva") is None


def test_a_notice_names_only_a_member_and_an_unknown_role_is_refused(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _as(client, tenant, "owner")
    make_user("beto", tenant.workspace_id, "viewer")
    forged = client.get(f"{base}/users?done=created&who=Llamá al 555-1234").text
    assert "555-1234" not in forged
    assert "Usuario creado: beto" in client.get(f"{base}/users?done=created&who=beto").text
    odd = client.post(
        f"{base}/users/{_user_id('beto')}/role", data={"csrf": token, "role": "superuser"}
    )
    assert odd.status_code == 422 and "Ese rol no existe." in odd.text
    assert _role("beto", tenant.workspace_id) == "viewer"
