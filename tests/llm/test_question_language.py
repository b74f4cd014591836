"""Which language a message is asked in against a passage's (``vigia.llm.crossing``) and
the parts of a two-part question (``vigia.llm.question_parts``): plain functions, no
models."""

from __future__ import annotations

import pytest

from vigia.llm.crossing import crosses, language_of
from vigia.llm.question_parts import question_parts

SPANISH = "Una clave revocada deja de funcionar de inmediato. Las claves se guardan con hash."


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("How do I revoke an API key?", "en"),  # "do" is Portuguese too
        ("O que acontece quando o orçamento mensal é atingido?", "pt"),
        ("Como revogo uma chave de API?", "pt"),  # "de" is Portuguese too
        ("¿Qué versión del agente usan las claves de borrador?", "es"),
        (SPANISH, "es"),
    ],
)
def test_language_of_counts_the_function_words_of_one_language_only(
    text: str, language: str
) -> None:
    assert language_of(text) == language


def test_a_message_crosses_a_passage_in_another_language_only() -> None:
    assert crosses("How do I revoke an API key?", SPANISH)
    assert not crosses("¿Cómo revoco una clave?", SPANISH)


@pytest.mark.parametrize(
    ("message", "parts"),
    [
        (
            "¿Cómo creo una clave de API y qué alcances puede tener?",
            ["¿Cómo creo una clave de API", "qué alcances puede tener?"],
        ),
        (
            "How do I create a key and what scopes can it have?",
            ["How do I create a key", "what scopes can it have?"],
        ),
        (
            "Como crio uma chave e quais escopos ela pode ter?",
            ["Como crio uma chave", "quais escopos ela pode ter?"],
        ),
        (
            "¿Qué diferencia hay entre claves y versiones?",
            ["¿Qué diferencia hay entre claves y versiones?"],
        ),
    ],
)
def test_question_parts_split_where_and_opens_another_question(
    message: str, parts: list[str]
) -> None:
    assert question_parts(message) == parts
