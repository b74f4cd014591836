"""Production keys run the published version; draft keys run the draft."""

from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat
from tests.conftest import Tenant, make_tenant


def test_draft_key_runs_draft_and_production_the_published_version(
    client: TestClient, tenant: Tenant
) -> None:
    patch = {"instructions": "Atendemos los sábados de 10 a 14 horas."}
    r = client.patch(
        f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}",
        json=patch,
        headers=ADMIN,
    )
    assert r.status_code == 200
    _, prod = chat(client, tenant.production_key, tenant.agent_slug, "¿Atienden los sábados?")
    _, draft = chat(
        client, tenant.draft_key, tenant.agent_slug + "@draft", "¿Atienden los sábados?"
    )
    assert prod["sherlock"]["version"] == 1
    assert "sábados" not in prod["choices"][0]["message"]["content"]
    assert draft["sherlock"]["version"] == 2, "a draft is numbered as its publish would be"
    assert draft["sherlock"]["env"] == "draft" and prod["sherlock"]["env"] == "production"
    assert "sábados de 10 a 14" in draft["choices"][0]["message"]["content"]
    published = client.post(
        f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/publish",
        headers=ADMIN,
    ).json()
    assert published == {"slug": tenant.agent_slug, "version": 2}
    _, prod = chat(client, tenant.production_key, tenant.agent_slug, "¿Atienden los sábados?")
    assert prod["sherlock"]["version"] == 2
    assert "sábados de 10 a 14" in prod["choices"][0]["message"]["content"]


def test_draft_suffix_does_not_change_the_environment(client: TestClient, tenant: Tenant) -> None:
    client.patch(
        f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}",
        json={"instructions": "Texto nuevo del borrador."},
        headers=ADMIN,
    )
    _, prod = chat(client, tenant.production_key, tenant.agent_slug + "@draft", "hola")
    assert prod["sherlock"]["version"] == 1


def test_unpublished_agent_is_invisible_to_production_keys(
    client: TestClient, tenant: Tenant
) -> None:
    r = client.post(
        f"/admin/workspaces/{tenant.workspace_name}/agents",
        json={"slug": "nuevo", "instructions": "Borrador."},
        headers=ADMIN,
    )
    assert r.status_code == 201
    prod = client.get("/v1/models", headers={"Authorization": f"Bearer {tenant.production_key}"})
    draft = client.get("/v1/models", headers={"Authorization": f"Bearer {tenant.draft_key}"})
    assert [m["id"] for m in prod.json()["data"]] == [tenant.agent_slug]
    assert sorted(m["id"] for m in draft.json()["data"]) == sorted([tenant.agent_slug, "nuevo"])
    status, body = chat(client, tenant.production_key, "nuevo", "hola")
    assert status == 404 and body == {
        "detail": "agent 'nuevo' has no published version yet: publish it or use a draft key"
    }
    status, body = chat(client, tenant.draft_key, "nuevo", "hola")
    assert status == 200 and body["sherlock"]["version"] == 1, "the draft of version 1"


def test_embedded_answer_quotes_facts_not_role_instructions(client: TestClient) -> None:
    tenant = make_tenant(
        name="seguros",
        slug="acme",
        instructions="Sos el asistente de Acme. Acme vende seguros de auto.",
    )
    _, body = chat(client, tenant.production_key, tenant.agent_slug, "¿Qué vende Acme?")
    content = body["choices"][0]["message"]["content"]
    assert content == "Acme vende seguros de auto."


def test_models_shows_the_name_of_the_version_the_key_runs(
    client: TestClient, tenant: Tenant
) -> None:
    client.patch(
        f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}",
        json={"name": "Nombre nuevo"},
        headers=ADMIN,
    )
    prod = client.get("/v1/models", headers={"Authorization": f"Bearer {tenant.production_key}"})
    draft = client.get("/v1/models", headers={"Authorization": f"Bearer {tenant.draft_key}"})
    assert prod.json()["data"][0]["name"] == tenant.agent_slug
    assert draft.json()["data"][0]["name"] == "Nombre nuevo"
