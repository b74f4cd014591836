"""Grounding rules added for claims about named things and claims that join sentences."""

from __future__ import annotations

from vigia.guardrails.grounding import (
    ClaimSupport,
    SupportIndex,
    assess_many,
    build_index,
    names_in,
)


def assess(sentence: str, index: SupportIndex) -> ClaimSupport:
    return assess_many([sentence], index)[0]


SOURCES = (
    "Aceptamos tarjetas Visa y Mastercard en todas las sucursales. "
    "Los pases diarios incluyen el uso de la pileta. "
    "El almuerzo se cobra aparte en el restaurante del club."
)


def test_names_in_skips_a_sentence_first_word_and_function_words() -> None:
    assert names_in("Aceptamos American Express. También Visa.") == ["American", "Express", "Visa"]
    assert names_in("Visa también. ¿Mastercard? Sí: Maestro y de la Plata.") == ["Plata"]


def test_a_name_the_sources_never_mention_is_unsupported() -> None:
    index = build_index([SOURCES])
    claim = assess("En todas las sucursales aceptamos tarjetas American Express.", index)
    assert claim.status == "unsupported"
    assert claim.reason == "names not in the sources: American, Express"
    assert assess("En todas las sucursales aceptamos tarjetas Visa.", index).status == "supported"


def test_a_short_claim_must_be_found_in_one_sentence() -> None:
    index = build_index([SOURCES])
    # Each of its words is in some sentence, but no sentence says it.
    assert assess("Las sucursales cobran la pileta aparte.", index).status != "supported"


def test_a_long_claim_may_join_facts_from_two_source_sentences() -> None:
    index = build_index(
        [
            "The band released its third album, Emotive, on November 2, 2004.",
            "That day was the United States presidential election day.",
        ]
    )
    claim = (
        "The band released its third album, Emotive, on November 2, 2004, "
        "the United States presidential election day."
    )
    assert assess(claim, index).status == "supported"
