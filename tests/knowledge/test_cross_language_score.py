"""The 0–1 score of a passage (``knowledge.retrieval.relevance``) for a question in another
language than the passage: missing shared words no longer halve it; same-language scores
are the mean of cosine and term share as before."""

from __future__ import annotations

from vigia.knowledge.retrieval import CROSSED_SHARE, relevance

PASSAGE = "Cuando el gasto del mes alcanza el presupuesto, el espacio se pausa."


def test_a_question_in_another_language_counts_part_of_the_cosine_as_its_term_share() -> None:
    question = "O que acontece quando o orçamento mensal é atingido?"
    assert relevance(question, PASSAGE, 0.4) == round(0.5 * 0.4 + 0.5 * CROSSED_SHARE * 0.4, 4)


def test_a_question_in_the_passages_language_scores_cosine_and_term_share() -> None:
    question = "¿Qué pasa cuando se alcanza el presupuesto?"  # 2 of its 3 terms in the passage
    assert relevance(question, PASSAGE, 0.4) == round(0.5 * 0.4 + 0.5 * 2 / 3, 4)
    assert relevance("¿Qué es un guardrail?", PASSAGE, 0.4) == 0.2  # no term, cosine halved
