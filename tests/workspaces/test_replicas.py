"""Two `vigia serve` replicas sharing one Redis: exact rate limits, immediate revocation."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx

from tests.chat_calls import ADMIN
from tests.conftest import free_port, make_tenant


def _wait(url: str) -> None:
    for _ in range(200):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not start")


@contextmanager
def two_replicas(redis_url: str, **env: str) -> Iterator[list[str]]:
    """Two `vigia serve` processes on one database and one Redis; yields their base URLs."""
    environment = {**os.environ, "VIGIA_REDIS_URL": redis_url, **env}
    ports = [free_port(), free_port()]
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "vigia.cli",
                "serve",
                "--port",
                str(p),
                "--log-level",
                "warning",
            ],
            env=environment,
        )
        for p in ports
    ]
    try:
        for p in ports:
            _wait(f"http://127.0.0.1:{p}/healthz")
        yield [f"http://127.0.0.1:{p}" for p in ports]
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=15)


def test_rate_limit_is_exact_across_two_replicas(redis_url: str) -> None:
    limit, extra = 10, 8
    tenant = make_tenant(rpm=limit)
    with two_replicas(redis_url) as urls:
        body = {"model": tenant.agent_slug, "messages": [{"role": "user", "content": "hola"}]}

        def call(i: int) -> int:
            url = f"{urls[i % 2]}/v1/chat/completions"
            auth = {"Authorization": f"Bearer {tenant.production_key}"}
            return httpx.post(url, json=body, headers=auth, timeout=60).status_code

        with ThreadPoolExecutor(max_workers=limit + extra) as pool:
            statuses = sorted(pool.map(call, range(limit + extra)))
    assert statuses == [200] * limit + [429] * extra


def test_a_revoked_key_is_refused_at_once_by_both_replicas(redis_url: str) -> None:
    """Each replica has the key cached (for 60 s); the revocation answers only once both
    would refuse it."""
    tenant = make_tenant()
    keys_path = f"/admin/workspaces/{tenant.workspace_name}/keys"
    with two_replicas(redis_url, VIGIA_KEY_CACHE_TTL_S="60") as urls:
        for attempt in range(4):
            revoker, other = urls[attempt % 2], urls[(attempt + 1) % 2]
            created = httpx.post(f"{other}{keys_path}", headers=ADMIN, json={}, timeout=30)
            assert created.status_code == 201
            auth = {"Authorization": f"Bearer {created.json()['key']}"}
            for url in urls:  # cache it on both
                assert httpx.get(f"{url}/v1/models", headers=auth, timeout=30).status_code == 200
            revoked = httpx.delete(
                f"{revoker}{keys_path}/{created.json()['id']}", headers=ADMIN, timeout=30
            )
            assert revoked.status_code == 200
            for url in (other, revoker):
                refused = httpx.get(f"{url}/v1/models", headers=auth, timeout=30)
                assert refused.status_code == 401, (attempt, url)
                assert refused.json() == {"detail": "this API key was revoked"}
        still = {"Authorization": f"Bearer {tenant.production_key}"}
        assert all(
            httpx.get(f"{url}/v1/models", headers=still, timeout=30).status_code == 200
            for url in urls
        )
