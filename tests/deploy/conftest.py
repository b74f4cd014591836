"""The real deployment of ``scripts/deploy-local`` (nginx, two replicas, PostgreSQL, Redis)
and a client that talks to it through nginx, shared by the deployment tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "deploy-admin-token-0123456789abcdef"
SCRIPT = str(ROOT / "scripts" / "deploy-local")

skip_on_postgres_pass = pytest.mark.skipif(
    bool(os.environ.get("VIGIA_TEST_DATABASE_URL")),
    reason="starts its own PostgreSQL; runs once, in the SQLite pass of the suite",
)


def _env() -> dict[str, str]:
    env = {
        **os.environ,
        "VIGIA_PYTHON": sys.executable,
        "VIGIA_ADMIN_TOKEN": TOKEN,
        "VIGIA_KEY_CACHE_TTL_S": "0.5",
    }
    for name in ("VIGIA_DATA_DIR", "VIGIA_TRUSTED_PROXIES"):
        env.pop(name, None)
    return env


@contextmanager
def deployed(state: Path) -> Iterator[dict[str, Any]]:
    """Starts the deployment in ``state``; yields what ``deploy-local up`` printed, plus
    ``state``; stops it afterwards."""
    env = _env()
    up = subprocess.run(
        [SCRIPT, "up", str(state)], env=env, capture_output=True, text=True, timeout=300
    )
    try:
        assert up.returncode == 0, up.stderr
        info: dict[str, Any] = json.loads(up.stdout.strip().splitlines()[-1])
        info["state"] = state
        yield info
    finally:
        subprocess.run([SCRIPT, "down", str(state)], env=env, timeout=120, check=False)


@pytest.fixture(scope="module")
def shared_deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One deployment for every test of a module (tests that leave it as they found it)."""
    with deployed(tmp_path_factory.mktemp("deploy") / "state") as info:
        yield info


class Lb:
    """Requests through nginx."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=60)
        self.admin = {"Authorization": f"Bearer {TOKEN}"}

    def adm(self, method: str, path: str, **kw: Any) -> Any:
        r = self.http.request(method, "/admin" + path, headers=self.admin, **kw)
        assert r.status_code < 300, (path, r.status_code, r.text)
        return r.json()

    def chat(self, key: str, text: str, conversation: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {key}"}
        if conversation:
            headers["X-Sherlock-Conversation"] = conversation
        body = {"model": "asistente", "messages": [{"role": "user", "content": text}]}
        return self.http.post("/v1/chat/completions", json=body, headers=headers)

    def key(self, workspace: str, **body: Any) -> dict[str, Any]:
        result: dict[str, Any] = self.adm("POST", f"/workspaces/{workspace}/keys", json=body)
        return result
