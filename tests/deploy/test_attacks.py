"""Attacks replayed on the real deployment (nginx, two replicas, PostgreSQL, Redis): one
deployment for the module, each test leaving its own traces only."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import httpx
import psycopg
import pytest

from tests.deploy.conftest import TOKEN, Lb, skip_on_postgres_pass
from tests.recording_upstream import recording_upstream

# One deployment at a time, in one pytest-xdist worker (scripts/test-fast, --dist loadgroup).
pytestmark = [skip_on_postgres_pass, pytest.mark.xdist_group("deploy")]


CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def _create_user(deployment: dict[str, Any], name: str, password: str, *grant: str) -> None:
    env = {
        **os.environ,
        "VIGIA_DATABASE_URL": deployment["database_url"],
        "VIGIA_DATA_DIR": deployment["data_dir"],
    }
    subprocess.run(
        [sys.executable, "-m", "vigia.cli", "user", "create", name, "--password-stdin", *grant],
        input=password + "\n",
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def test_rotating_x_forwarded_for_through_nginx_does_not_reset_login_throttling(
    shared_deployment: dict[str, Any],
) -> None:
    _create_user(shared_deployment, "olga-proxy", "correct horse battery staple")
    lb = Lb(shared_deployment["base_url"])
    wrong = {"username": "olga-proxy", "password": "wrong password"}
    answers = [
        lb.http.post("/auth/login", json=wrong, headers={"X-Forwarded-For": f"203.0.113.{i}"})
        for i in range(1, 13)
    ]
    codes = [r.status_code for r in answers]
    assert codes[:5] == [401] * 5, codes
    throttled = [r for r in answers if r.status_code == 429]
    assert throttled, codes
    assert all(int(r.headers["retry-after"]) >= 1 for r in throttled)
    assert len({r.headers["x-upstream"] for r in answers}) == 2, "both replicas answered"


def _console_admin(lb: Lb, deployment: dict[str, Any], workspace: str) -> str:
    """A workspace admin of ``workspace`` logged in to the console through nginx; the CSRF
    token for later posts."""
    grant = ("--workspace", workspace, "--role", "admin")
    _create_user(deployment, "eva-admin", "a long console password", *grant)
    found = CSRF.search(lb.http.get("/console/login").text)
    assert found
    login = {"username": "eva-admin", "password": "a long console password", "csrf": found[1]}
    assert lb.http.post("/console/login", data=login).status_code in (200, 303)
    return found[1]


def test_a_workspace_admin_cannot_send_the_admin_token_to_an_upstream_of_their_own(
    shared_deployment: dict[str, Any],
) -> None:
    """The theft of issue 34 on the replicas: the console form, the admin API and a stored
    legacy configuration all fail to send ``VIGIA_ADMIN_TOKEN`` anywhere."""
    lb = Lb(shared_deployment["base_url"])
    created = lb.adm("POST", "/workspaces", json={"name": "thief"})
    agent = {"slug": "asistente", "instructions": "Atendemos de lunes a viernes de 9 a 18."}
    lb.adm("POST", "/workspaces/thief/agents", json=agent)
    with recording_upstream() as (url, seen):
        # Even with the attacker's upstream listed by the operator, the key is refused.
        lb.adm("PUT", "/workspaces/thief/tool-hosts", json={"hosts": ["127.0.0.1"]})
        stolen = {
            "provider": "openai",
            "name": "gpt-4o-mini",
            "base_url": url,
            "api_key_env": "VIGIA_ADMIN_TOKEN",
        }
        csrf = _console_admin(lb, shared_deployment, "thief")
        form = {
            "csrf": csrf,
            "name": "Asistente",
            "language": "es",
            "instructions": "Atendemos de lunes a viernes de 9 a 18 horas.",
            "model_provider": "openai",
            "model_name": "gpt-4o-mini",
            "model_base_url": url,
            "model_api_key_env": "VIGIA_ADMIN_TOKEN",
        }
        console = f"/console/w/{created['id']}/agents/asistente"
        assert lb.http.post(f"{console}/draft", data=form).status_code == 422
        patched = lb.http.patch(
            "/admin/workspaces/thief/agents/asistente", json={"model": stolen}, headers=lb.admin
        )
        assert patched.status_code == 422, patched.text
        # A configuration stored before the fix, written straight into PostgreSQL.
        with psycopg.connect(shared_deployment["database_url"]) as db:
            db.execute(
                "UPDATE agents SET draft = jsonb_set(draft::jsonb, '{model}', %s::jsonb)::json"
                " WHERE slug = 'asistente' AND workspace_id = %s",
                (httpx.Response(200, json=stolen).text, created["id"]),
            )
        played = [
            lb.http.post(f"{console}/chat", data={"csrf": csrf, "message": "hola", "env": "draft"})
            for _ in range(4)
        ]
        assert {p.status_code for p in played} == {502}
        assert len({p.headers["x-upstream"] for p in played}) == 2, "both replicas refused"
    assert seen == [], "the upstream was never called"
    assert all(TOKEN not in p.text for p in played)
