"""A write's model work runs on its app's model workers, not on the request's thread."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from vigia.decide import inference, service

DECIDE = {
    "state": "Me cobraron dos veces",
    "questions": {"reembolso": {"type": "binary", "ask": "¿Pide un reembolso?"}},
}


def test_decide_runs_its_model_on_a_model_worker(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = inference.run_model

    def recording(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(service, "run_model", recording)
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    response = client.post("/v1/decide", json=DECIDE, headers=headers)
    assert response.status_code == 200, response.text
    assert len(threads) == 1 and threads[0].startswith("vigia-model")
