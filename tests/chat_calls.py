"""Small request helpers for the OpenAI chat surface, shared by the tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.upstream_hosts import allow_upstream

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789abcdef"}


def chat(
    client: TestClient, key: str, model: str, text: str, **extra: Any
) -> tuple[int, dict[str, Any]]:
    """Posts one user message; returns status and JSON body."""
    headers = {"Authorization": f"Bearer {key}", **extra.pop("headers", {})}
    body = {"model": model, "messages": [{"role": "user", "content": text}], **extra}
    r = client.post("/v1/chat/completions", headers=headers, json=body)
    return r.status_code, r.json()


def stream_lines(client: TestClient, key: str, model: str, text: str) -> list[str]:
    """Streams one user message; returns its ``data: …`` lines, ``data: [DONE]`` included."""
    with client.stream(
        "POST",
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={"model": model, "stream": True, "messages": [{"role": "user", "content": text}]},
    ) as response:
        return [line for line in response.iter_lines() if line.startswith("data: ")]


def publish_upstream_agent(client: TestClient, tenant: Tenant, patch: dict[str, Any]) -> None:
    """Points the tenant's agent at the ``gpt-4o-mini`` upstream ``http://up.test/v1``
    (allowed for the workspace), applies ``patch`` too, and publishes it."""
    base = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    model = {"provider": "openai", "name": "gpt-4o-mini", "base_url": "http://up.test/v1"}
    allow_upstream(tenant.workspace_id, "http://up.test/v1")
    client.patch(base, json={"model": model, **patch}, headers=ADMIN)
    client.post(f"{base}/publish", headers=ADMIN)
