"""Two `vigia serve` replicas sharing one Redis: the key's rate limit holds exactly."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import make_tenant


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait(url: str) -> None:
    for _ in range(200):
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.05)
    raise RuntimeError(f"{url} did not start")


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A real redis-server on a free loopback port (scripts/test installs it)."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is required (scripts/test installs it)"
    port = _free_port()
    folder = tempfile.mkdtemp()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


def test_rate_limit_is_exact_across_two_replicas(redis_url: str) -> None:
    limit, extra = 10, 8
    tenant = make_tenant(rpm=limit)
    env = {**os.environ, "VIGIA_REDIS_URL": redis_url}
    ports = [_free_port(), _free_port()]
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
            env=env,
        )
        for p in ports
    ]
    try:
        for p in ports:
            _wait(f"http://127.0.0.1:{p}/healthz")
        body = {"model": tenant.agent_slug, "messages": [{"role": "user", "content": "hola"}]}

        def call(i: int) -> httpx.Response:
            url = f"http://127.0.0.1:{ports[i % 2]}/v1/chat/completions"
            auth = {"Authorization": f"Bearer {tenant.production_key}"}
            return httpx.post(url, json=body, headers=auth, timeout=60)

        with ThreadPoolExecutor(max_workers=limit + extra) as pool:
            responses = list(pool.map(call, range(limit + extra)))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=15)
    assert sorted(r.status_code for r in responses) == [200] * limit + [429] * extra
    refused = [r.json() for r in responses if r.status_code == 429]
    assert all(f"rate limit of {limit} requests per minute" in r["detail"] for r in refused)
