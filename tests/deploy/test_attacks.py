"""Attacks replayed on the real deployment (nginx, two replicas, PostgreSQL, Redis): one
deployment for the module, each test leaving its own traces only."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from tests.deploy.conftest import Lb, skip_on_postgres_pass

pytestmark = skip_on_postgres_pass


def _create_user(deployment: dict[str, Any], name: str, password: str) -> None:
    env = {
        **os.environ,
        "VIGIA_DATABASE_URL": deployment["database_url"],
        "VIGIA_DATA_DIR": deployment["data_dir"],
    }
    subprocess.run(
        [sys.executable, "-m", "vigia.cli", "user", "create", name, "--password-stdin"],
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
