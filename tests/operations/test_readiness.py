"""``GET /readyz``: 200 when database, Redis and migrations are fine; 503 with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from fastapi.testclient import TestClient

from vigia.config import get_settings
from vigia.db.migrate import alembic_config


def _closed_port_url(scheme: str) -> str:
    return f"{scheme}://nobody@127.0.0.1:1/nothing"


def test_ready_when_database_and_migrations_are_fine(client: TestClient) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "ok", "redis": "not configured"},
    }
    assert client.get("/healthz").json() == {"status": "ok"}


def test_unreachable_database_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGIA_DATABASE_URL", _closed_port_url("postgresql"))
    get_settings.cache_clear()
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not ready"
    assert body["checks"]["database"].startswith("unreachable")
    assert "nobody" not in str(body)


def test_unreachable_redis_is_503(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VIGIA_REDIS_URL", "redis://127.0.0.1:1/0")
    get_settings.cache_clear()
    response = client.get("/readyz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["database"] == "ok" and checks["redis"].startswith("unreachable")


def test_migrations_behind_is_503(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0001_foundation")
    monkeypatch.setenv("VIGIA_DATABASE_URL", url)
    get_settings.cache_clear()
    response = client.get("/readyz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["database"] == "ok" and checks["migrations"].startswith("not at head")
