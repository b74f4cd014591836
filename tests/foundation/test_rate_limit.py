"""With a limit of N per minute, exactly N of N+k concurrent calls succeed."""

from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.conftest import make_tenant


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
