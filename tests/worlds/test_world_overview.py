"""A first turn with ``knowledge: false`` answers from the world's catalogue — what the world
is and what it holds — in the question's language, searching and citing nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from vigia.worlds.ingest.indexer import IndexReport

W = "payroll-2024"


def _first_turn(client: TestClient, message: str, version: str = W) -> dict[str, object]:
    response = client.post("/chat", json={"message": message, "version": version})
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_a_first_turn_without_knowledge_describes_the_world(
    alice: TestClient, payroll: IndexReport
) -> None:
    body = _first_turn(alice, "What is in this world?")
    headline = str(body["headline"])
    assert f"World '{W}' holds {payroll.files} files ({payroll.lines} lines)" in headline
    assert "COBOL programs" in headline and "copybooks" in headline and "JCL members" in headline
    assert "JCL jobs" in headline and "Programs: CHKPRINT, DATEUTIL" in headline
    assert "Knowledge is off" in headline
    assert body["sources"] == []


def test_the_catalogue_answers_in_the_question_language(
    alice: TestClient, payroll: IndexReport
) -> None:
    spanish = str(_first_turn(alice, "¿Qué contiene este mundo?")["headline"])
    assert f"El mundo '{W}' tiene {payroll.files} archivos" in spanish
    assert "programas COBOL" in spanish and "El conocimiento está desactivado" in spanish
    portuguese = str(_first_turn(alice, "O que tem neste mundo?")["headline"])
    assert f"O mundo '{W}' tem {payroll.files} arquivos" in portuguese
    assert "O conhecimento está desativado" in portuguese


def test_a_world_not_indexed_yet_says_so(alice: TestClient) -> None:
    headline = str(_first_turn(alice, "What is in this world?", "v1")["headline"])
    assert "World 'v1' is registered but not indexed yet" in headline
    assert "vigia world index v1" in headline
