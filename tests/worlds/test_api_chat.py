"""POST /chat, GET /chat/stream, /qa/run and /troubleshoot/run over the payroll world."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from tests.bodies import as_dict, json_of
from tests.errors import assert_error, assert_invalid
from tests.worlds.conftest import PAYROLL
from vigia.db.session import session_scope
from vigia.worlds.catalog import add_world
from vigia.worlds.ingest.indexer import IndexReport
from vigia.worlds.schemas import StreamEvent

W = "payroll-2024"


def _chat(client: TestClient, **body: object) -> dict[str, Any]:
    response = client.post("/chat", json={"version": W, "knowledge": True, **body})
    assert response.status_code == 200, response.text
    return json_of(response)


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


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("../etc", "scope path '../etc' must not contain '..'"),
        ("/etc/passwd", "scope path '/etc/passwd' must be relative to the world"),
        ("src/../../x", "scope path 'src/../../x' must not contain '..'"),
        ("nope/here", f"scope path 'nope/here' does not exist in world '{W}'"),
        ("C:/x", "scope path 'C:/x' must be relative to the world"),
        ("", "scope path must be a non-empty string"),
    ],
)
def test_bad_scope_paths_are_422(
    alice: TestClient, payroll: IndexReport, bad: str, why: str
) -> None:
    response = alice.post(
        "/chat", json={"message": "x", "version": W, "knowledge": True, "scope_paths": [bad]}
    )
    assert_error(response, 422, why)
    lens = alice.post("/qa/run", json={"question": "x", "version": W, "scope_paths": [bad]})
    assert_error(lens, 422, why)


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


def test_unknown_and_unindexed_worlds(alice: TestClient, team: str) -> None:
    missing = alice.post("/chat", json={"message": "x", "version": "nope", "knowledge": True})
    assert_error(missing, 404, "world 'nope' not found")
    with session_scope() as session:
        add_world(session, "fresh", PAYROLL, team)
    fresh = alice.post("/chat", json={"message": "x", "version": "fresh", "knowledge": True})
    assert_error(fresh, 409, "world 'fresh' is not indexed yet: run `vigia world index fresh`")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"message": ""}, "message"),
        ({"message": "   "}, "message"),
        ({"message": "x" * 8001}, "message"),
        ({"message": "x", "version": "-bad"}, "version"),
        ({"message": "x", "conversation_id": 0}, "conversation_id"),
        ({"message": "x", "scope_paths": ["a"] * 21}, "scope_paths"),
        ({}, "message"),
        ({"message": "x", "knowledge": "maybe"}, "knowledge"),
    ],
)
def test_invalid_chat_bodies_are_422(
    alice: TestClient, body: dict[str, object], field: str
) -> None:
    assert_invalid(alice.post("/chat", json=body), ["body", field])


def test_unknown_conversation_is_404(alice: TestClient) -> None:
    response = alice.post("/chat", json={"message": "x", "conversation_id": 999})
    assert_error(response, 404, "conversation 999 not found")


def _events(client: TestClient, **params: str | list[str]) -> list[dict[str, Any]]:
    with client.stream("GET", "/chat/stream", params=params) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        text = "".join(response.iter_text())
    chunks = [c for c in text.split("\n\n") if c.strip()]
    assert all(c.startswith("data: ") for c in chunks)
    return [as_dict(json.loads(c[len("data: ") :])) for c in chunks]


def test_stream_emits_nodes_deltas_and_final_answer(
    alice: TestClient, payroll: IndexReport
) -> None:
    events = _events(
        alice, message="What calls CALC-TAX", version=W, knowledge="true", scope_paths=["src/tax"]
    )
    for event in events:  # each event is one of the documented event types, exactly
        parsed = TypeAdapter(StreamEvent).validate_python(event)
        assert parsed.model_dump(mode="json", exclude_none=True) == event
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
    unknown = alice.get(
        "/chat/stream", params={"message": "x", "version": "nope", "knowledge": "true"}
    )
    assert_error(unknown, 404, "world 'nope' not found")
    escaping = alice.get("/chat/stream", params={"message": "x", "scope_paths": "../x"})
    assert_error(escaping, 422, "scope path '../x' must not contain '..'")
    assert_invalid(alice.get("/chat/stream"), ["query", "message"])
    alice.post("/auth/logout")
    assert_error(client.get("/chat/stream", params={"message": "x"}), 401, "not logged in")


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
    assert_invalid(alice.post("/troubleshoot/run", json={"symptom": " "}), ["body", "symptom"])
    unknown = alice.post("/qa/run", json={"question": "x", "version": "nope"})
    assert_error(unknown, 404, "world 'nope' not found")
