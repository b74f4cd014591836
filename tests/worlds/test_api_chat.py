"""POST /chat, GET /chat/stream, /qa/run and /troubleshoot/run over the payroll world."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.worlds.conftest import PAYROLL
from vigia.db.session import session_scope
from vigia.worlds.catalog import add_world
from vigia.worlds.indexer import IndexReport

W = "payroll-2024"


def _chat(client: TestClient, **body: object) -> dict[str, object]:
    response = client.post("/chat", json={"version": W, "knowledge": True, **body})
    assert response.status_code == 200, response.text
    return response.json()


def test_chat_qa_envelope_cites_definition_and_uses(
    alice: TestClient, payroll: IndexReport
) -> None:
    body = _chat(alice, message="What is the purpose of the WS-TAX-RATE field?")
    assert body["lens"] == "qa" and body["route"]["lens"] == "qa"
    assert body["route"]["reason"] and body["route"]["path"][0] == "router → qa"
    assert body["scope"] == {"version": W, "scope_paths": [], "source": "all"}
    assert {"doc_id": "copy/TAXTBL.cpy", "line": 13} in body["sources"]
    assert {"doc_id": "src/tax/TAXCALC.cbl", "line": 47} in body["sources"]
    assert "copy/TAXTBL.cpy:13" in body["headline"] and "LOOKUP-BRACKET" in body["headline"]
    assert isinstance(body["conversation_id"], int)
    assert "personal_sources" not in body


def test_chat_routes_impact_and_troubleshoot(alice: TestClient, payroll: IndexReport) -> None:
    impact = _chat(alice, message="What calls CALC-TAX?")
    assert impact["lens"] == "impact"
    assert "PAYCALC" in impact["headline"] and "PAYWEEK.STEP020" in impact["headline"]
    trouble = _chat(alice, message="CALC-TAX returns wrong value for overtime employees")
    assert trouble["lens"] == "troubleshoot" and "wrong" in trouble["route"]["reason"]
    assert "Candidate cause 1" in trouble["headline"]


def test_scope_paths_narrow_and_are_normalised(alice: TestClient, payroll: IndexReport) -> None:
    body = _chat(alice, message="overtime hours", scope_paths=["./docs/", "docs"])
    assert body["scope"] == {"version": W, "scope_paths": ["docs"], "source": "explicit"}
    assert body["sources"] and all(s["doc_id"].startswith("docs/") for s in body["sources"])


@pytest.mark.parametrize("bad", ["../etc", "/etc/passwd", "src/../../x", "nope/here", "C:/x", ""])
def test_bad_scope_paths_are_422(alice: TestClient, payroll: IndexReport, bad: str) -> None:
    response = alice.post(
        "/chat", json={"message": "x", "version": W, "knowledge": True, "scope_paths": [bad]}
    )
    assert response.status_code == 422
    assert (
        alice.post(
            "/qa/run", json={"question": "x", "version": W, "scope_paths": [bad]}
        ).status_code
        == 422
    )


def test_knowledge_false_answers_without_retrieval(alice: TestClient) -> None:
    response = alice.post("/chat", json={"message": "What does CALC-TAX do?"})
    assert response.status_code == 200
    body = response.json()
    assert body["sources"] == [] and "Knowledge is off" in body["headline"]
    assert body["scope"]["version"] == "v1"


def test_knowledge_false_recalls_earlier_turns(alice: TestClient, payroll: IndexReport) -> None:
    first = _chat(alice, message="What does the CALC-TAX paragraph do?")
    second = alice.post(
        "/chat",
        json={
            "message": "remind me about CALC-TAX",
            "version": W,
            "conversation_id": first["conversation_id"],
        },
    ).json()
    assert second["conversation_id"] == first["conversation_id"]
    assert "From earlier in this conversation" in second["headline"]
    assert second["sources"] == []


def test_unknown_and_unindexed_worlds(alice: TestClient) -> None:
    missing = alice.post("/chat", json={"message": "x", "version": "nope", "knowledge": True})
    assert missing.status_code == 404
    with session_scope() as session:
        add_world(session, "fresh", PAYROLL)
    fresh = alice.post("/chat", json={"message": "x", "version": "fresh", "knowledge": True})
    assert fresh.status_code == 409 and "vigia world index fresh" in fresh.json()["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"message": ""},
        {"message": "   "},
        {"message": "x" * 8001},
        {"message": "x", "version": "-bad"},
        {"message": "x", "conversation_id": 0},
        {"message": "x", "scope_paths": ["a"] * 21},
        {},
        {"message": "x", "knowledge": "maybe"},
    ],
)
def test_invalid_chat_bodies_are_422(alice: TestClient, body: dict[str, object]) -> None:
    assert alice.post("/chat", json=body).status_code == 422


def test_unknown_conversation_is_404(alice: TestClient) -> None:
    assert alice.post("/chat", json={"message": "x", "conversation_id": 999}).status_code == 404


def _events(client: TestClient, **params: object) -> list[dict[str, object]]:
    with client.stream("GET", "/chat/stream", params=params) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    chunks = [c for c in text.split("\n\n") if c.strip()]
    assert all(c.startswith("data: ") for c in chunks)
    return [json.loads(c[len("data: ") :]) for c in chunks]


def test_stream_emits_nodes_deltas_and_final_answer(
    alice: TestClient, payroll: IndexReport
) -> None:
    events = _events(
        alice, message="What calls CALC-TAX", version=W, knowledge="true", scope_paths=["src/tax"]
    )
    nodes = [e for e in events if e["type"] == "node"]
    assert {n["kind"] for n in nodes} == {"think", "tool"}
    for ident in {n["id"] for n in nodes}:
        statuses = [n["status"] for n in nodes if n["id"] == ident]
        assert statuses == ["active", "done"]
    assert set(nodes[0]) == {"type", "id", "kind", "label", "detail", "status"}
    deltas = [e["text"] for e in events if e["type"] == "answer_delta"]
    final = events[-1]
    assert final["type"] == "answer"
    message = final["message"]
    assert "".join(deltas) == message["headline"]
    assert final["conversation_id"] == message["conversation_id"]
    assert message["scope"] == {"version": W, "scope_paths": ["src/tax"], "source": "explicit"}
    assert message["lens"] == "impact" and message["sources"]
    stored = alice.get(f"/conversations/{final['conversation_id']}").json()
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant"]


def test_stream_errors_before_streaming(alice: TestClient, client: TestClient) -> None:
    assert (
        alice.get(
            "/chat/stream", params={"message": "x", "version": "nope", "knowledge": "true"}
        ).status_code
        == 404
    )
    assert (
        alice.get("/chat/stream", params={"message": "x", "scope_paths": "../x"}).status_code == 422
    )
    assert alice.get("/chat/stream").status_code == 422
    alice.post("/auth/logout")
    assert client.get("/chat/stream", params={"message": "x"}).status_code == 401


def test_qa_run_and_troubleshoot_run(alice: TestClient, payroll: IndexReport) -> None:
    qa = alice.post(
        "/qa/run",
        json={
            "question": "What is the purpose of the WS-TAX-RATE field?",
            "version": W,
            "scope_paths": ["src/tax"],
        },
    )
    assert qa.status_code == 200
    body = qa.json()
    assert body["lens"] == "qa" and body["scope"]["source"] == "explicit"
    assert body["details"]["entities"][0]["name"] == "WS-TAX-RATE"
    trouble = alice.post(
        "/troubleshoot/run",
        json={"symptom": "CALC-TAX returns wrong value for overtime employees", "version": W},
    )
    assert trouble.status_code == 200
    details = trouble.json()["details"]
    assert details["involved"][0]["name"] == "CALC-TAX"
    assert "PAYWEEK.STEP020" in trouble.json()["headline"] or details["involved"][0]["code_path"]
    assert any(c["set_by"] == "TAXCALC.COMPUTE-TAXABLE" for c in details["causes"])
    assert alice.post("/troubleshoot/run", json={"symptom": " "}).status_code == 422
    assert alice.post("/qa/run", json={"question": "x", "version": "nope"}).status_code == 404
