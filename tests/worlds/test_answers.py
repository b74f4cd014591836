"""Answers over the small CICS world (``tests/worlds/cics``), one test per failure of the
worlds issue: business questions found by meaning, quotes that respect fixed format and
never cut a word, follow-ups that refer back, the router on the four kinds, and scope paths
that restrict citations and are checked case-sensitively."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.bodies import json_of
from tests.errors import assert_error
from tests.worlds.conftest import CICS
from tests.worlds.test_cics_world import W
from vigia.worlds.answer.lenses.router import choose_lens
from vigia.worlds.ingest.indexer import IndexReport
from vigia.worlds.source import quote, shorten

_QUOTE = re.compile(r"“([^”]*)” \(([^():]+):(\d+)\)")


def _chat(client: TestClient, message: str, **body: object) -> dict[str, Any]:
    response = client.post(
        "/chat", json={"message": message, "version": W, "knowledge": True, **body}
    )
    assert response.status_code == 200, response.text
    return json_of(response)


def _doc_ids(body: dict[str, Any]) -> set[str]:
    return {s["doc_id"] for s in body["sources"]}


@pytest.mark.parametrize(
    "question",
    [
        "Where is the customer's credit score checked?",
        "¿Dónde se comprueba la puntuación crediticia del cliente?",
        "Onde é verificada a pontuação de crédito do cliente?",
    ],
)
def test_business_questions_find_the_paragraph_by_meaning(
    alice: TestClient, loans: IndexReport, question: str
) -> None:
    body = _chat(alice, question)
    assert body["lens"] == "qa" and "business" in body["route"]["reason"]
    assert "CRDCHK.2000-CHECK-CREDIT-SCORE" in body["headline"]
    assert "src/CRDCHK.cbl" in _doc_ids(body)


def test_quotes_respect_fixed_format_and_never_cut_a_word(
    alice: TestClient, loans: IndexReport
) -> None:
    body = _chat(alice, "What does 1300-COMPUTE-INTEREST do and where is the interest computed?")
    headline = str(body["headline"])
    assert "1300-COMPUTE-INTEREST" in headline
    quotes = _QUOTE.findall(headline)
    assert quotes
    for text, path, line in quotes:
        raw = (CICS / path).read_text().splitlines()[int(line) - 1]
        area = " ".join(raw[7:72].split()) if path.endswith(".cbl") else " ".join(raw.split())
        shown = text.removesuffix(" …")
        assert shown in area, (shown, area)  # columns 1-7 and 73-80 never quoted
        start = area.index(shown)
        assert start == 0 or area[start - 1] == " ", (shown, area)  # starts on a word
        end = start + len(shown)
        assert end == len(area) or area[end] == " ", (shown, area)  # ends on a word
        assert "CRDCHK01" not in text and not re.match(r"^\d{6}", text)


def test_quote_and_shorten_keep_whole_words() -> None:
    line = f"001300 {'1300-COMPUTE-INTEREST.':<65}CRDCHK01"
    assert quote(line, fixed=True) == "1300-COMPUTE-INTEREST."
    comment = f"001400*{'  Reject the applicant when the bureau score is low.':<65}CRDCHK01"
    assert quote(comment, fixed=True) == "Reject the applicant when the bureau score is low."
    assert quote("SHIPMENTS ARE CAPPED AT 40", fixed=False) == "SHIPMENTS ARE CAPPED AT 40"
    assert shorten("SHIPMENTS ARE CAPPED AT FORTY UNITS", 20) == "SHIPMENTS ARE CAPPED …"


NAMES_NOTHING = {
    "And what calls it?": "The question names no program",
    "y qué lo llama": "La pregunta no nombra ningún programa",
    "E quem chama esse programa?": "A pergunta não nomeia nenhum programa",
}


@pytest.mark.parametrize(
    ("first", "follow_up"),
    [
        ("What does RATECALC do?", "And what calls it?"),
        ("¿Qué hace RATECALC?", "y qué lo llama"),
        ("O que faz o RATECALC?", "E quem chama esse programa?"),
    ],
)
def test_follow_ups_resolve_what_the_previous_turn_was_about(
    alice: TestClient, loans: IndexReport, first: str, follow_up: str
) -> None:
    cid = _chat(alice, first)["conversation_id"]
    body = _chat(alice, follow_up, conversation_id=cid)
    assert body["lens"] == "impact"
    assert "CRDCHK.1000-MAIN" in str(body["headline"])  # LINK PROGRAM(WS-RATE-PGM)
    alone = _chat(alice, follow_up)  # a new conversation has nothing to refer back to
    assert str(alone["headline"]).startswith(NAMES_NOTHING[follow_up])  # in its language


def test_follow_up_after_a_business_question_uses_the_answer(
    alice: TestClient, loans: IndexReport
) -> None:
    cid = _chat(alice, "Where is the customer's credit score checked?")["conversation_id"]
    body = _chat(alice, "What performs that paragraph?", conversation_id=cid)
    assert body["lens"] == "impact"
    assert "CRDCHK.1000-MAIN" in str(body["headline"])  # PERFORM 2000-CHECK-CREDIT-SCORE


def test_reading_a_file_is_a_fact_not_an_impact(alice: TestClient, loans: IndexReport) -> None:
    # Not "...reads the user security file?": the injection detector scores it 0.99 and the
    # worlds input guardrails block it (a known false positive, docs/worlds.md).
    body = _chat(alice, "Which paragraph reads the user-security file?")
    assert body["lens"] == "qa"
    assert str(body["headline"]).startswith("The closest code is SECREAD.READ-USER-SECURITY")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which paragraph reads the user security file?", "business"),
        ("Which program runs under the CICS transaction CRD1?", "fact"),
        ("¿Qué programa escribe el fichero DECISNS?", "fact"),
        ("Qual parágrafo lê a tabela CREDIT_BUREAU?", "fact"),
        ("Where is the interest of a loan computed?", "business"),
        ("¿Dónde se calcula el interés del préstamo?", "business"),
        ("Onde é calculado o juro do empréstimo?", "business"),
        ("What calls RATECALC?", "impact"),
        ("Si cambio el copybook APPLREC, ¿qué programas hay que recompilar?", "impact"),
        ("Se o layout do arquivo APPLFILE mudar, quais programas são afetados?", "impact"),
        ("Applications abend with CRD4. Where should I look?", "troubleshoot"),
        (
            "Al dar de alta un préstamo el interés nunca cambia. ¿Dónde está el problema?",
            "troubleshoot",
        ),
        ("A consulta responde 'cliente não encontrado' sob carga. Onde olhar?", "troubleshoot"),
    ],
)
def test_router_is_right_on_the_four_kinds(question: str, kind: str) -> None:
    route = choose_lens(question)
    assert route.kind == kind, route.reason
    assert route.lens == {"fact": "qa", "business": "qa"}.get(kind, kind)


def test_scope_paths_restrict_every_citation(alice: TestClient, loans: IndexReport) -> None:
    whole = _chat(alice, "What calls RATECALC?")
    assert "csd/crd.csd" in _doc_ids(whole)  # the transactions, outside src/
    scoped = _chat(alice, "What calls RATECALC?", scope_paths=["src"])
    assert scoped["scope"]["scope_paths"] == ["src"]
    assert _doc_ids(scoped) and all(d.startswith("src/") for d in _doc_ids(scoped))
    assert "csd/crd.csd" not in str(scoped["headline"])
    business = _chat(alice, "How is the loan priced?", scope_paths=["src/RATECALC.cbl"])
    assert _doc_ids(business) == {"src/RATECALC.cbl"}


def test_scope_paths_match_existing_paths_case_sensitively(
    alice: TestClient, loans: IndexReport
) -> None:
    upper = alice.post(
        "/chat", json={"message": "x", "version": W, "knowledge": True, "scope_paths": ["SRC"]}
    )
    assert_error(
        upper, 422, f"scope path 'SRC' does not exist in world '{W}' (did you mean 'src'?)"
    )
    lens = alice.post("/qa/run", json={"question": "x", "version": W, "scope_paths": ["Src/x"]})
    assert_error(lens, 422, f"scope path 'Src/x' does not exist in world '{W}'")
    ok = _chat(alice, "What does RATECALC do?", scope_paths=["src/", "./src/RATECALC.cbl"])
    assert ok["scope"]["scope_paths"] == ["src", "src/RATECALC.cbl"]


def test_world_passages_live_on_the_shared_search_stack(loans: IndexReport) -> None:
    from sqlalchemy import func, inspect, select

    from vigia.db.session import get_engine, session_scope
    from vigia.search import index_for
    from vigia.worlds.catalog import collection_of
    from vigia.worlds.models import WorldChunk

    assert "world_chunks_fts" not in inspect(get_engine()).get_table_names()
    with session_scope() as session:
        chunks = session.scalar(select(func.count()).select_from(WorldChunk))
        assert chunks and index_for(session).count(session, collection_of(W)) == chunks
    assert Path(CICS / "src" / "CRDCHK.cbl").exists()
