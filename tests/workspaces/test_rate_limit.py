"""With a limit of N per minute, exactly N of N+k concurrent calls succeed."""

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.conftest import make_tenant
from vigia.workspaces import ratelimit


def test_exactly_n_of_concurrent_calls_pass(live_server: str) -> None:
    limit, extra = 8, 6
    tenant = make_tenant(rpm=limit)
    body = {"model": tenant.agent_slug, "messages": [{"role": "user", "content": "hola"}]}

    def call(_: int) -> httpx.Response:
        return httpx.post(
            f"{live_server}/v1/chat/completions",
            json=body,
            timeout=30,
            headers={"Authorization": f"Bearer {tenant.production_key}"},
        )

    with ThreadPoolExecutor(max_workers=limit + extra) as pool:
        responses = list(pool.map(call, range(limit + extra)))
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] * limit + [429] * extra
    refused = [r for r in responses if r.status_code == 429]
    assert all(int(r.headers["Retry-After"]) >= 1 for r in refused)
    assert all("rate limit of 8 requests per minute" in r.json()["detail"] for r in refused)
    other = httpx.get(
        f"{live_server}/v1/models", headers={"Authorization": f"Bearer {tenant.draft_key}"}
    )
    assert other.status_code == 200, "each key has its own window"


def test_memory_limiter_drops_buckets_idle_for_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keys that stop calling do not keep a bucket for the life of the process."""
    clock = [1000.0]
    monkeypatch.setattr("vigia.workspaces.ratelimit.time.monotonic", lambda: clock[0])
    limiter = ratelimit.MemoryRateLimiter()
    for i in range(limiter.SWEEP_EVERY - 1):
        assert limiter.acquire(f"key-{i}", 5) is None
    assert len(limiter) == limiter.SWEEP_EVERY - 1
    clock[0] += ratelimit.WINDOW_S + 1
    assert limiter.acquire("busy", 5) is None  # the sweep runs on this admission
    assert len(limiter) == 1
    assert limiter.acquire("busy", 1) is not None  # the live bucket kept its hit
