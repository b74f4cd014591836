"""Which passage sentences answer a message: the order passages are read in, and the
sentences the embedded answerer keeps (``vigia.llm.reading``, ``vigia.llm.embedded``)."""

from __future__ import annotations

import pytest

from tests.conftest import Tenant
from tests.knowledge.documents import policy_pdf
from vigia.db.session import session_scope
from vigia.knowledge import service
from vigia.knowledge.retrieval import read_passages
from vigia.llm import embedded
from vigia.llm.embedded import EmbeddedModel, compose
from vigia.llm.protocol import ModelRequest, Passage, TextChunk
from vigia.llm.reading import ScoredSentence, by_best_sentence, score_sentences
from vigia.workspaces.service import find_workspace


def _passage(text: str, score: float, name: str = "empresa.md") -> Passage:
    return Passage(text=text, document_id=name, document=name, score=score)


GENERAL = _passage(
    "La empresa tiene oficinas en Madrid y Lisboa. Sus productos se venden en toda Europa "
    "y la empresa emplea a 300 personas.",
    0.6,
)
HISTORY = _passage(
    "Los fundadores venían del sector textil. La empresa se fundó en 1987 en Sevilla.", 0.5
)


def test_the_passage_holding_the_answering_sentence_is_read_first() -> None:
    ordered = by_best_sentence("¿En qué año se fundó la empresa?", [GENERAL, HISTORY])
    assert ordered == [HISTORY, GENERAL]


def test_sentences_are_scored_in_reading_order_with_their_passage() -> None:
    scored = score_sentences("¿En qué año se fundó la empresa?", [GENERAL, HISTORY])
    assert [s.passage for s in scored] == [1, 1, 2, 2]
    assert [s.order for s in scored] == [0, 1, 2, 3]
    best = max(scored, key=lambda s: s.score)
    assert best.text == "La empresa se fundó en 1987 en Sevilla."


def test_reading_needs_a_message_and_passages() -> None:
    assert score_sentences("   ", [GENERAL]) == []
    assert by_best_sentence("¿Cuándo?", []) == []


def _sentence(text: str, passage: int, score: float, order: int) -> ScoredSentence:
    """A sentence whose selector score and relevance are both ``score``."""
    return ScoredSentence(text, passage, score, order, relevance=score)


def _scored(monkeypatch: pytest.MonkeyPatch, sentences: list[ScoredSentence]) -> str:
    monkeypatch.setattr(embedded, "score_sentences", lambda message, passages: sentences)
    passages = [_passage("x", 0.5), _passage("y", 0.5)]
    return compose(ModelRequest(instructions="", message="¿Cuándo?", passages=passages))


def test_a_nearly_as_good_sentence_of_the_same_passage_joins_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answer = _scored(
        monkeypatch,
        [
            _sentence("Primera.", 1, 1.00, 0),
            _sentence("Segunda.", 1, 0.87, 1),
            _sentence("Otra.", 2, 0.86, 2),
        ],
    )
    assert answer == "Primera. [1] Segunda. [1]"


def test_a_sentence_of_another_passage_needs_a_stricter_bar(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    close = [_sentence("Primera.", 1, 1.0, 1), _sentence("Otra.", 2, 0.95, 2)]
    assert _scored(monkeypatch, close) == "Primera. [1] Otra. [2]"
    far = [_sentence("Primera.", 1, 1.0, 1), _sentence("Otra.", 2, 0.88, 2)]
    assert _scored(monkeypatch, far) == "Primera. [1]"


def test_answers_keep_reading_order_and_at_most_two_sentences(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answer = _scored(
        monkeypatch,
        [
            _sentence("Antes.", 1, 0.99, 0),
            _sentence("Mejor.", 1, 1.0, 1),
            _sentence("Después.", 1, 0.98, 2),
        ],
    )
    assert answer == "Antes. [1] Mejor. [1]"


def test_the_selector_picks_the_answer_and_relevance_its_companion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answer = _scored(
        monkeypatch,
        [
            ScoredSentence("Repite la pregunta.", 1, 0.30, 0, relevance=1.20),
            ScoredSentence("La responde.", 1, 0.80, 1, relevance=1.00),
            ScoredSentence("Otra cosa.", 1, 0.50, 2, relevance=0.70),
        ],
    )
    assert answer == "Repite la pregunta. [1] La responde. [1]"
    alone = [
        ScoredSentence("La responde.", 1, 0.80, 0, relevance=1.00),
        ScoredSentence("Otra cosa.", 1, 0.70, 1, relevance=0.80),
    ]
    assert _scored(monkeypatch, alone) == "La responde. [1]"


def test_nothing_relevant_enough_gets_the_no_answer_reply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sentences = [ScoredSentence("Probable pero ajena.", 1, 0.99, 0, relevance=0.60)]
    monkeypatch.setattr(embedded, "score_sentences", lambda message, passages: sentences)
    request = ModelRequest(
        instructions="", message="¿Cuándo?", passages=[_passage("x", 0.5)], no_answer="No sé."
    )
    assert compose(request) == "No sé."


def test_a_streamed_answer_keeps_the_marker_of_each_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sentences = [_sentence("Primera.", 1, 1.0, 0), _sentence("Otra.", 2, 0.95, 1)]
    monkeypatch.setattr(embedded, "score_sentences", lambda message, passages: sentences)
    request = ModelRequest(
        instructions="", message="¿Cuándo?", passages=[_passage("x", 0.5), _passage("y", 0.5)]
    )
    chunks = [e.text for e in EmbeddedModel().stream(request) if isinstance(e, TextChunk)]
    assert chunks == ["Primera. [1] ", "Otra. [2]"]


def test_an_agent_reads_the_answering_passage_first(tenant: Tenant) -> None:
    with session_scope() as session:
        workspace = find_workspace(session, tenant.workspace_id)
        kb = service.create_knowledge_base(session, workspace, "Pólizas")
        service.add_document(session, kb, "poliza.pdf", policy_pdf())
        passages = read_passages(session, [kb], "¿Qué cubre la cobertura todo riesgo?", 2)
        assert read_passages(session, [kb], "  ", 2) == []
    assert len(passages) == 2
    assert "accidente, incendio o robo" in passages[0].text
    assert passages[0].heading is not None and "todo riesgo" in passages[0].heading.casefold()
