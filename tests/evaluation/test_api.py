"""Admin routes of evaluation: cases (CRUD), running them, and the promptfoo export."""

from __future__ import annotations

import pytest
import yaml
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant, make_tenant
from tests.eval_cases.helpers import (
    DEFAULT_BLOCKED,
    HOURS_QUESTION,
    HOURS_REPLY,
    INJECTION,
    blocked_case,
    failing_case,
    passing_case,
)
from tests.knowledge.documents import policy_pdf
from vigia.agents.schemas import AgentCreate, AgentPatch
from vigia.agents.service import create_agent, get_agent, publish, update_draft
from vigia.db.session import session_scope
from vigia.engine.models import Run
from vigia.knowledge import service as knowledge
from vigia.workspaces.service import find_workspace

ADMIN = {"Authorization": "Bearer test-admin-token-0123456789abcdef"}
CASE = {
    "name": "horario",
    "input": HOURS_QUESTION,
    "assertions": {"contains": ["lunes a viernes"], "status": "ok"},
}


def _cases_url(tenant: Tenant) -> str:
    return f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/eval-cases"


def test_cases_are_created_listed_replaced_and_deleted(client: TestClient, tenant: Tenant) -> None:
    url = _cases_url(tenant)
    created = client.post(url, json=CASE, headers=ADMIN)
    assert created.status_code == 201, created.text
    case = created.json()
    assert case["input"] == HOURS_QUESTION and case["agent_id"] == tenant.agent_id
    assert case["assertions"]["contains"] == ["lunes a viernes"]
    assert client.get(url, headers=ADMIN).json()["cases"] == [case]
    replaced = client.put(
        f"{url}/{case['id']}",
        json={
            **CASE,
            "history": [{"role": "user", "content": "Hola"}],
            "assertions": {"cites": True},
        },
        headers=ADMIN,
    )
    assert replaced.status_code == 200
    assert replaced.json()["assertions"]["cites"] is True
    assert replaced.json()["assertions"]["contains"] == []
    assert replaced.json()["history"] == [{"role": "user", "content": "Hola"}]
    assert client.get(f"{url}/{case['id']}", headers=ADMIN).json() == replaced.json()
    deleted = client.delete(f"{url}/{case['id']}", headers=ADMIN)
    assert deleted.json() == {"id": case["id"], "deleted": True}
    gone = client.get(f"{url}/{case['id']}", headers=ADMIN)
    assert gone.status_code == 404
    assert gone.json() == {"detail": f"evaluation case '{case['id']}' not found"}


def test_a_case_without_assertions_is_a_422_and_stores_nothing(
    client: TestClient, tenant: Tenant
) -> None:
    url = _cases_url(tenant)
    r = client.post(url, json={"input": "hola", "assertions": {}}, headers=ADMIN)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "assertions"]
    assert "at least one assertion" in r.json()["detail"][0]["msg"]
    assert client.get(url, headers=ADMIN).json() == {"cases": []}


def test_routes_need_the_admin_token(client: TestClient, tenant: Tenant) -> None:
    r = client.get(_cases_url(tenant), headers={"Authorization": f"Bearer {tenant.production_key}"})
    assert r.status_code == 401 and r.json() == {"detail": "admin token required"}


def test_another_agents_case_is_not_found(client: TestClient, tenant: Tenant) -> None:
    other = make_tenant(name="otra", slug="otro")
    case_id = passing_case(other)
    r = client.get(f"{_cases_url(tenant)}/{case_id}", headers=ADMIN)
    assert r.status_code == 404 and "not found" in r.json()["detail"]


def test_evaluate_runs_each_case_as_a_turn_on_channel_eval(
    client: TestClient, tenant: Tenant
) -> None:
    ids = [passing_case(tenant), failing_case(tenant), blocked_case(tenant)]
    url = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/evaluate"
    r = client.post(url, json={"env": "production"}, headers=ADMIN)
    assert r.status_code == 200, r.text
    report = r.json()
    assert (report["env"], report["version"], report["passed"], report["failed"]) == (
        "production",
        1,
        2,
        1,
    )
    cases = {c["id"]: c for c in report["cases"]}
    assert list(cases) == ids
    assert cases[ids[0]]["reply"] == HOURS_REPLY and cases[ids[0]]["failures"] == []
    assert cases[ids[1]]["failures"] == ["reply does not contain 'sábados'"]
    assert (cases[ids[2]]["status"], cases[ids[2]]["reply"]) == ("blocked", DEFAULT_BLOCKED)
    with session_scope() as session:
        runs = session.scalars(select(Run).where(Run.channel == "eval")).all()
    assert sorted(r.id for r in runs) == sorted(c["run_id"] for c in report["cases"])
    assert all(r.key_id is None and r.env == "production" for r in runs)


def test_a_case_with_history_sends_it_as_the_clients_history(
    client: TestClient, tenant: Tenant
) -> None:
    url = _cases_url(tenant)
    body = {
        "input": "¿Y de lunes a viernes?",
        "history": [
            {"role": "user", "content": "¿Atienden los domingos?"},
            {"role": "assistant", "content": "No."},
        ],
        "assertions": {"contains": ["9 a 18"]},
    }
    assert client.post(url, json=body, headers=ADMIN).status_code == 201
    run = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/evaluate"
    report = client.post(run, json={"env": "draft"}, headers=ADMIN).json()
    assert report["passed"] == 1, report
    trace = client.get(f"/admin/runs/{report['cases'][0]['run_id']}", headers=ADMIN).json()
    history = next(s for s in trace["stages"] if s["name"] == "history")
    assert history["detail"] == {"source": "request", "messages": 2}


def test_cites_checks_the_named_document(client: TestClient, tenant: Tenant) -> None:
    with session_scope() as session:
        kb = knowledge.create_knowledge_base(
            session, find_workspace(session, tenant.workspace_id), "Pólizas"
        )
        knowledge.add_document(session, kb, "Condiciones generales auto.pdf", policy_pdf())
        agent = get_agent(session, tenant.workspace_id, tenant.agent_slug)
        update_draft(session, agent, AgentPatch(knowledge_bases=[kb.id]))
        publish(session, agent)
    question = "¿Qué cubre la cobertura todo riesgo del auto?"
    url = _cases_url(tenant)
    for document in ("Condiciones generales auto.pdf", "hogar.pdf"):
        body = {"input": question, "assertions": {"cites": True, "cites_document": document}}
        assert client.post(url, json=body, headers=ADMIN).status_code == 201
    run = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/evaluate"
    report = client.post(run, json={"env": "production"}, headers=ADMIN).json()
    assert [c["passed"] for c in report["cases"]] == [True, False]
    assert report["cases"][1]["failures"] == ["reply does not cite 'hogar.pdf'"]
    assert "[1]" in report["cases"][0]["reply"]


def test_evaluate_production_of_an_unpublished_agent_is_a_404(
    client: TestClient, tenant: Tenant
) -> None:
    with session_scope() as session:
        create_agent(
            session, find_workspace(session, tenant.workspace_id), AgentCreate(slug="borrador")
        )
    r = client.post(
        f"/admin/workspaces/{tenant.workspace_name}/agents/borrador/evaluate",
        json={"env": "production"},
        headers=ADMIN,
    )
    assert r.status_code == 404 and "no published version" in r.json()["detail"]


def test_promptfoo_route_serves_the_yaml_file(client: TestClient, tenant: Tenant) -> None:
    passing_case(tenant)
    blocked_case(tenant)
    url = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/promptfoo"
    r = client.get(url, headers=ADMIN)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/yaml")
    assert r.headers["content-disposition"] == 'attachment; filename="promptfooconfig.yaml"'
    assert "sk-vigia-" not in r.text
    config = yaml.safe_load(r.text)
    assert config["providers"][0]["config"]["apiBaseUrl"] == "http://testserver/v1"
    assert [t["vars"]["messages"][-1]["content"] for t in config["tests"]] == [
        HOURS_QUESTION,
        INJECTION,
    ]
    chosen = client.get(
        url, params={"env": "draft", "base_url": "https://vigia.example/v1"}, headers=ADMIN
    )
    assert yaml.safe_load(chosen.text)["description"] == f"Vigia agent {tenant.agent_slug} (draft)"
    assert "https://vigia.example/v1" in chosen.text


@pytest.mark.parametrize(
    ("params", "status"), [({"env": "staging"}, 422), ({"base_url": "nope"}, 422)]
)
def test_promptfoo_route_refuses_bad_parameters(
    client: TestClient, tenant: Tenant, params: dict[str, str], status: int
) -> None:
    url = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/promptfoo"
    r = client.get(url, params=params, headers=ADMIN)
    assert r.status_code == status and r.json()["detail"]
