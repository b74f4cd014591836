"""Upstream answers: [n] markers map to passages, unused passages are dropped, numbers
are consecutive in order of first use. The upstream agent's model is a fake with a fixed
text (only its markers matter) and retrieval is replaced by fixed passages."""

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import chat, publish_upstream_agent
from tests.conftest import Tenant
from vigia.engine import pipeline
from vigia.engine.citations import SNIPPET_CHARS, snippet
from vigia.engine.stages.retrieval import Retrieval
from vigia.engine.turn import Turn
from vigia.llm.function import replying
from vigia.llm.protocol import Passage
from vigia.llm.registry import override_model

PASSAGES = [
    Passage("Texto de la cláusula 1.", "d1", "Condiciones.pdf", 0.9, page=1, heading="Cláusula 1"),
    Passage(
        "Cubre daños propios del vehículo.",
        "d2",
        "Condiciones.pdf",
        0.8,
        page=2,
        heading="Cláusula 4 · Cobertura todo riesgo",
    ),
    Passage("Incluye granizo e inundación.", "d3", "Anexo.html", 0.7, url="https://x.test/anexo"),
]


UPSTREAM_TEXT = "Cubre daños propios [3]. También granizo [2]. Y otra vez daños [3]."


def test_citations_are_renumbered_in_order_of_use(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    def retrieve(session: object, turn: Turn) -> Retrieval:
        return Retrieval(list(PASSAGES))

    monkeypatch.setattr(pipeline, "retrieve", retrieve)
    publish_upstream_agent(client, tenant, {"guardrails": {"grounding": "off"}})
    with override_model(replying(UPSTREAM_TEXT), name="gpt-4o-mini"):
        _, body = chat(client, tenant.production_key, tenant.agent_slug, "¿Qué cubre?")
    content = body["choices"][0]["message"]["content"]
    assert content.strip() == "Cubre daños propios [1]. También granizo [2]. Y otra vez daños [1]."
    citations = body["sherlock"]["citations"]
    assert [(c["n"], c["document_id"]) for c in citations] == [(1, "d3"), (2, "d2")]
    assert citations[1]["page"] == 2
    assert citations[1]["heading"] == "Cláusula 4 · Cobertura todo riesgo"
    assert citations[0]["url"] == "https://x.test/anexo"
    assert all(0 <= c["score"] <= 1 for c in citations)


PASSAGE = (
    "La póliza cubre incendio y robo. Un siniestro se denuncia dentro de los tres días hábiles. "
    "La franquicia es del 5 % del valor asegurado."
)


def test_snippet_is_the_sentence_the_answer_was_taken_from() -> None:
    quoted = snippet(PASSAGE, ["Un siniestro se denuncia dentro de los tres días hábiles."])
    assert quoted == "Un siniestro se denuncia dentro de los tres días hábiles."
    paraphrased = snippet(PASSAGE, ["Tenés tres días hábiles para denunciar el siniestro."])
    assert paraphrased == "Un siniestro se denuncia dentro de los tres días hábiles."


def test_snippet_without_a_resembling_sentence_is_the_passage_opening() -> None:
    assert snippet(PASSAGE, ["Sí."]).startswith("La póliza cubre incendio y robo.")
    assert len(snippet("x " * 400, ["nada"])) <= SNIPPET_CHARS + 1
