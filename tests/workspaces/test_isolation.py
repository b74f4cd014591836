"""A key sees only its workspace: other agents and conversations are 404, never 403."""

from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat
from tests.conftest import Tenant, make_tenant


def test_other_workspace_agent_is_not_found(client: TestClient, tenant: Tenant) -> None:
    other = make_tenant(name="other", slug="secreto")
    status, body = chat(client, tenant.production_key, other.agent_slug, "hola")
    assert status == 404 and body == {"detail": "model 'secreto' not found"}
    models = client.get("/v1/models", headers={"Authorization": f"Bearer {tenant.production_key}"})
    assert "secreto" not in [m["id"] for m in models.json()["data"]]


def test_other_workspace_conversation_is_not_found(client: TestClient, tenant: Tenant) -> None:
    other = make_tenant(name="other", slug="otro")
    _, theirs = chat(client, other.production_key, other.agent_slug, "hola")
    cid = theirs["sherlock"]["conversation_id"]
    status, body = chat(
        client, tenant.production_key, tenant.agent_slug, "hola", conversation_id=cid
    )
    assert status == 404 and body == {"detail": "conversation not found"}
    r = client.get(f"/admin/workspaces/{tenant.workspace_name}/conversations/{cid}", headers=ADMIN)
    assert r.status_code == 404 and r.json() == {"detail": "conversation not found"}


def test_channel_key_sees_only_its_agent(client: TestClient, tenant: Tenant) -> None:
    client.post(
        f"/admin/workspaces/{tenant.workspace_name}/agents", json={"slug": "segundo"}, headers=ADMIN
    )
    client.post(f"/admin/workspaces/{tenant.workspace_name}/agents/segundo/publish", headers=ADMIN)
    key = client.post(
        f"/admin/workspaces/{tenant.workspace_name}/keys", json={"agent": "segundo"}, headers=ADMIN
    ).json()
    assert key["rpm"] == 600
    models = client.get("/v1/models", headers={"Authorization": f"Bearer {key['key']}"}).json()
    assert [m["id"] for m in models["data"]] == ["segundo"]
    status, body = chat(client, key["key"], tenant.agent_slug, "hola")
    assert status == 404 and body == {"detail": f"model '{tenant.agent_slug}' not found"}


def test_revoked_key_and_missing_scope(client: TestClient, tenant: Tenant) -> None:
    created = client.post(
        f"/admin/workspaces/{tenant.workspace_name}/keys",
        json={"scopes": ["decide"]},
        headers=ADMIN,
    ).json()
    status, body = chat(client, created["key"], tenant.agent_slug, "hola")
    assert status == 403 and body == {"detail": "this API key lacks the 'chat' scope"}
    client.delete(f"/admin/workspaces/{tenant.workspace_name}/keys/{created['id']}", headers=ADMIN)
    status, body = chat(client, created["key"], tenant.agent_slug, "hola")
    assert status == 401 and body == {"detail": "this API key was revoked"}
    r = client.get("/v1/models")
    assert r.status_code == 401 and "missing API key" in r.json()["detail"]


def test_admin_api_needs_the_admin_token(client: TestClient) -> None:
    missing = client.get("/admin/workspaces")
    assert missing.status_code == 401 and missing.json() == {"detail": "admin token required"}
    bad = client.get("/admin/workspaces", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and bad.json() == {"detail": "admin token required"}


def test_oversized_body_is_refused_with_413(client: TestClient, tenant: Tenant) -> None:
    huge = "a" * (3 * 1024 * 1024)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, huge)
    assert status == 413 and set(body) == {"detail"} and "larger than" in body["detail"]
