"""Named items resolve against the whole world even when ``scope_paths`` narrows the search:
the scope restricts the evidence an answer cites, and the answer says when the definition
lies outside it."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.bodies import json_of
from vigia.worlds.ingest.indexer import IndexReport

W = "loans"


def _chat(client: TestClient, message: str, scope: list[str]) -> dict[str, Any]:
    body = {"message": message, "version": W, "knowledge": True, "scope_paths": scope}
    response = client.post("/chat", json=body)
    assert response.status_code == 200, response.text
    return json_of(response)


@pytest.mark.parametrize(
    ("question", "outside"),
    [
        ("What calls RATECALC?", "defined outside the scope"),
        ("¿Quién llama a RATECALC?", "definido fuera del alcance"),
        ("Quem chama RATECALC?", "definido fora do escopo"),
    ],
)
def test_a_caller_question_scoped_to_the_callers_names_the_callee(
    alice: TestClient, loans: IndexReport, question: str, outside: str
) -> None:
    answer = _chat(alice, question, ["src/CRDCHK.cbl", "src/CRDMENU.cbl"])
    assert answer["lens"] == "impact"
    headline = answer["headline"]
    assert "RATECALC" in headline and outside in headline
    assert "CRDCHK.1000-MAIN (src/CRDCHK.cbl:30)" in headline  # the call the scope holds
    assert "src/RATECALC.cbl" not in headline and "csd/" not in headline
    assert {s["doc_id"] for s in answer["sources"]} <= {"src/CRDCHK.cbl", "src/CRDMENU.cbl"}


def test_the_same_question_without_a_scope_cites_the_definition(
    alice: TestClient, loans: IndexReport
) -> None:
    answer = _chat(alice, "What calls RATECALC?", [])
    assert "RATECALC (src/RATECALC.cbl:2)" in answer["headline"]
    assert "outside the scope" not in answer["headline"]


def test_a_fact_about_a_program_outside_the_scope_says_so(
    alice: TestClient, loans: IndexReport
) -> None:
    answer = _chat(alice, "What does RATECALC do?", ["src/CRDMENU.cbl"])
    assert answer["lens"] == "qa"
    headline = answer["headline"]
    assert "RATECALC is a COBOL program (defined outside the scope)" in headline
    assert "Prices a loan" not in headline  # its comment is evidence outside the scope
    assert {s["doc_id"] for s in answer["sources"]} <= {"src/CRDMENU.cbl"}
