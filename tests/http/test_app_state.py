"""State scoped to an app: each ``create_app()`` builds its own write gate and rate limiter,
so two apps in one process (two tests, two mounted services) share neither."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_tenant
from vigia.app import create_app
from vigia.config import get_settings

DECIDE = {
    "state": "Me cobraron dos veces",
    "questions": {"reembolso": {"type": "binary", "ask": "¿Pide un reembolso?"}},
}


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_two_apps_share_no_rate_limit_count() -> None:
    tenant = make_tenant(rpm=1)
    first, second = create_app(), create_app()
    assert first.state.rate_limiter is not second.state.rate_limiter
    with TestClient(first) as one, TestClient(second) as other:
        assert one.get("/v1/models", headers=_auth(tenant.production_key)).status_code == 200
        assert one.get("/v1/models", headers=_auth(tenant.production_key)).status_code == 429
        assert other.get("/v1/models", headers=_auth(tenant.production_key)).status_code == 200


def test_two_apps_share_no_write_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGIA_WRITE_CONCURRENCY", "1")
    monkeypatch.setenv("VIGIA_WRITE_QUEUE", "0")
    get_settings.cache_clear()
    tenant = make_tenant()
    first, second = create_app(), create_app()
    assert first.state.write_gate is not second.state.write_gate
    asyncio.run(first.state.write_gate.acquire())  # the first app's only slot, held
    try:
        with TestClient(first) as one, TestClient(second) as other:
            busy = one.post("/v1/decide", json=DECIDE, headers=_auth(tenant.production_key))
            assert busy.status_code == 503, busy.text
            served = other.post("/v1/decide", json=DECIDE, headers=_auth(tenant.production_key))
            assert served.status_code == 200, served.text
    finally:
        first.state.write_gate.release()
