from fastapi.testclient import TestClient

from tests.conftest import Tenant


def test_health_answers_ok(client: TestClient, tenant: Tenant) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert tenant.production_key.startswith("sk-vigia-")
