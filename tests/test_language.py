"""The text toolkit: folding, stopwords, words, sentences and where to cut long text."""

from __future__ import annotations

from vigia.language import (
    STOPWORDS,
    STOPWORDS_EN,
    STOPWORDS_ES,
    STOPWORDS_PT,
    break_point,
    content_terms,
    fold,
    line_sentences,
    sentences,
    words,
)


def test_fold_drops_case_and_accents_in_each_language() -> None:
    assert fold("Cláusula ÑANDÚ não Ação Über") == "clausula nandu nao acao uber"
    assert words("¿Cuánto cuesta? ¡Não sei!") == ["cuanto", "cuesta", "nao", "sei"]


def test_stopwords_are_folded_and_per_language() -> None:
    assert {"que", "tambien", "segun"} <= STOPWORDS_ES
    assert {"nao", "voce", "sao"} <= STOPWORDS_PT
    assert {"the", "about", "which"} <= STOPWORDS_EN
    assert STOPWORDS == STOPWORDS_ES | STOPWORDS_PT | STOPWORDS_EN
    assert all(fold(word) == word for word in STOPWORDS)
    assert content_terms("¿Qué coberturas tiene la póliza?") == ["cobertur", "poliz"]


def test_sentences_keep_citations_and_line_sentences_split_lines() -> None:
    text = "Cubre granizo [1]. No cubre robo.\n- Plazo: 30 días\n- Sin franquicia"
    assert sentences("Cubre granizo [1]. No cubre robo.") == [
        "Cubre granizo [1].",
        "No cubre robo.",
    ]
    assert line_sentences(text) == [
        "Cubre granizo [1].",
        "No cubre robo.",
        "- Plazo: 30 días",
        "- Sin franquicia",
    ]


def test_break_point_cuts_after_the_last_space_else_at_the_limit() -> None:
    assert break_point("uno dos tres", 9) == 8  # "uno dos " | "tres"
    assert break_point("abcdefghij", 4) == 4


def test_text_written_in_lower_case_is_split_at_its_stops_but_not_at_abbreviations() -> None:
    text = "caberá ao coordenador verificar os requisitos. a banca deverá definir os critérios."
    assert sentences(text) == [
        "caberá ao coordenador verificar os requisitos.",
        "a banca deverá definir os critérios.",
    ]
    assert sentences("Lo dijo el Sr. pérez, etc. y nada más.") == [
        "Lo dijo el Sr. pérez, etc. y nada más."
    ]


def test_sentences_keep_every_citation_marker_with_the_sentence_it_closes() -> None:
    assert sentences("A uno. [1] B dos. [2] [3] C tres. [1]") == [
        "A uno. [1]",
        "B dos. [2] [3]",
        "C tres. [1]",
    ]
    assert sentences("Está en Nairobi. [1]") == ["Está en Nairobi. [1]"]
