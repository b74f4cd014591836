"""Answers of a model that writes no ``[n]`` markers still carry their citations: a sentence
that restates one passage is given that passage's marker (``CitationMap``, attribution)."""

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import chat, publish_upstream_agent
from tests.conftest import Tenant
from vigia.engine import pipeline
from vigia.engine.citations import CitationMap
from vigia.engine.stages.retrieval import Retrieval
from vigia.engine.turn import Turn
from vigia.llm.function import replying
from vigia.llm.protocol import Passage
from vigia.llm.registry import override_model

PASSAGES = [
    Passage(
        "Las claves de borrador usan el borrador del agente, que se edita sin afectar a los "
        "clientes.",
        "d1",
        "claves-y-versiones.md",
        0.9,
    ),
    Passage(
        "El presupuesto mensual pausa el espacio de trabajo cuando se alcanza el límite.",
        "d2",
        "presupuestos.md",
        0.8,
    ),
]


def test_an_unmarked_sentence_that_restates_a_passage_gets_its_marker() -> None:
    citations = CitationMap(PASSAGES)
    first = citations.rewrite("El presupuesto mensual pausa el espacio al alcanzar el límite. ")
    second = citations.rewrite("Las claves de borrador usan el borrador del agente.")
    assert first == "El presupuesto mensual pausa el espacio al alcanzar el límite. [1] "
    assert second == "Las claves de borrador usan el borrador del agente. [2]"
    assert [(c.n, c.document) for c in citations.citations()] == [
        (1, "presupuestos.md"),
        (2, "claves-y-versiones.md"),
    ]


def test_a_sentence_that_shares_too_little_with_every_passage_stays_uncited() -> None:
    citations = CitationMap(PASSAGES)
    assert citations.rewrite("Hola, ¿en qué más te ayudo hoy?") == "Hola, ¿en qué más te ayudo hoy?"
    assert citations.rewrite("El borrador es otra cosa distinta.") == (
        "El borrador es otra cosa distinta."
    )
    assert citations.citations() == []


def test_a_model_that_writes_markers_is_not_second_guessed() -> None:
    citations = CitationMap(PASSAGES)
    assert citations.rewrite("Las claves de borrador usan el borrador [2].") == (
        "Las claves de borrador usan el borrador [1]."
    )
    later = "El presupuesto mensual pausa el espacio de trabajo al alcanzar el límite."
    assert citations.rewrite(later) == later
    assert [c.document for c in citations.citations()] == ["presupuestos.md"]


def test_answers_asked_as_json_are_never_attributed() -> None:
    citations = CitationMap(PASSAGES, enabled=False)
    text = "Las claves de borrador usan el borrador del agente."
    assert citations.rewrite(text) == text
    assert citations.citations() == []


def test_a_question_is_not_a_claim_and_stays_uncited() -> None:
    citations = CitationMap(PASSAGES)
    question = "Pregúntame: «¿Qué usan las claves de borrador del agente?»"
    assert citations.rewrite(question) == question
    assert citations.citations() == []


def test_a_model_that_marks_what_it_takes_is_not_attributed() -> None:
    citations = CitationMap(PASSAGES, attribute=False)
    text = "Las claves de borrador usan el borrador del agente."
    assert citations.rewrite(text) == text
    assert citations.citations() == []


def test_an_upstream_answer_without_markers_comes_back_cited(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the whole turn: an upstream (a scripted reply standing in for a model that
    never writes markers) restates the second passage; the reply and its citations show it."""

    def retrieve(session: object, turn: Turn) -> Retrieval:
        return Retrieval(list(PASSAGES))

    monkeypatch.setattr(pipeline, "retrieve", retrieve)
    publish_upstream_agent(client, tenant, {"guardrails": {"grounding": "off"}})
    reply = "El presupuesto mensual pausa el espacio de trabajo cuando llega al límite."
    with override_model(replying(reply), name="gpt-4o-mini"):
        _, body = chat(client, tenant.production_key, tenant.agent_slug, "¿Qué hace el límite?")
    assert body["choices"][0]["message"]["content"].strip() == f"{reply} [1]"
    assert [(c["n"], c["document_id"]) for c in body["sherlock"]["citations"]] == [(1, "d2")]
