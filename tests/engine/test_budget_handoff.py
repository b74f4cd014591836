"""Monthly budgets (pause and alert) and human handoff with operator replies."""

from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat
from tests.conftest import Tenant
from tests.spending import spend

PAUSED = "El servicio alcanzó su límite de uso mensual. Contactá al administrador."


def test_budget_pause_answers_budget_exceeded(client: TestClient, tenant: Tenant) -> None:
    client.put(
        f"/admin/workspaces/{tenant.workspace_name}/budget",
        json={"budget_usd": 1.0, "action": "pause"},
        headers=ADMIN,
    )
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert body["sherlock"]["status"] == "ok"
    spend(tenant, 1.5)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    assert status == 200
    assert body["sherlock"]["status"] == "budget_exceeded"
    assert body["choices"][0]["message"]["content"] == PAUSED
    usage = client.get(f"/admin/workspaces/{tenant.workspace_name}/usage", headers=ADMIN).json()
    assert usage["exhausted"] is True and usage["spent_usd"] >= 1.5


def test_budget_alert_keeps_answering_and_flags(client: TestClient, tenant: Tenant) -> None:
    client.put(
        f"/admin/workspaces/{tenant.workspace_name}/budget",
        json={"budget_usd": 1.0, "action": "alert"},
        headers=ADMIN,
    )
    spend(tenant, 2.0)
    _, body = chat(
        client, tenant.production_key, tenant.agent_slug, "¿Atienden de lunes a viernes?"
    )
    assert body["sherlock"]["status"] == "ok" and body["sherlock"]["budget_alert"] is True
    run = client.get(f"/admin/runs/{body['sherlock']['run_id']}", headers=ADMIN).json()
    assert run["budget_alert"] is True
    assert [s["outcome"] for s in run["stages"] if s["name"] == "budget"] == ["alert"]
    usage = client.get(f"/admin/workspaces/{tenant.workspace_name}/usage", headers=ADMIN).json()
    assert usage["alert"] is True


def test_handoff_silences_the_agent_and_keeps_operator_replies(
    client: TestClient, tenant: Tenant
) -> None:
    _, first = chat(client, tenant.production_key, tenant.agent_slug, "Quiero hablar con alguien")
    cid = first["sherlock"]["conversation_id"]
    base = f"/admin/workspaces/{tenant.workspace_name}/conversations/{cid}"
    assert client.post(f"{base}/handoff", headers=ADMIN).json() == {"id": cid, "handoff": True}
    _, during = chat(
        client, tenant.production_key, tenant.agent_slug, "¿Hola?", conversation_id=cid
    )
    assert during["sherlock"]["status"] == "handoff" and during["sherlock"]["handoff"] is True
    assert during["choices"][0]["message"]["content"] == ""
    r = client.post(
        f"{base}/messages", json={"content": "Hola, soy Ana del equipo."}, headers=ADMIN
    )
    assert r.status_code == 201
    history = client.get(base, headers=ADMIN).json()["messages"]
    assert [(m["role"], m["content"]) for m in history[-2:]] == [
        ("user", "¿Hola?"),
        ("operator", "Hola, soy Ana del equipo."),
    ]
    client.post(f"{base}/release", headers=ADMIN)
    _, after = chat(
        client, tenant.production_key, tenant.agent_slug, "gracias", conversation_id=cid
    )
    assert after["sherlock"]["status"] == "ok"


def test_run_trace_records_every_stage(client: TestClient, tenant: Tenant) -> None:
    _, body = chat(
        client, tenant.production_key, tenant.agent_slug, "¿Atienden de lunes a viernes?"
    )
    run = client.get(
        f"/admin/workspaces/{tenant.workspace_name}/runs/{body['sherlock']['run_id']}",
        headers=ADMIN,
    ).json()
    names = [s["name"] for s in run["stages"]]
    assert names == [
        "budget",
        "input_guardrails",
        "history",
        "retrieval",
        "generation",
        "output_guardrails",
    ]
    assert all(s["duration_ms"] >= 0 for s in run["stages"])
    assert run["usage"]["total_tokens"] == body["usage"]["total_tokens"]
