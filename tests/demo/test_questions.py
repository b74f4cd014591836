"""Questions a newcomer asks the demo (issue 29): in English and Portuguese about its Spanish
documents, and in two parts, each answered with a citation of the document that holds the
fact; a question the documents know nothing about still gets the no-answer reply.

End to end through the real ``openai`` SDK with the real embedded models (the answer's text
matters here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openai import OpenAI

from tests.cli.test_cli import vigia
from vigia.agents.schemas import Replies


def _ask(live_server: str, question: str) -> tuple[str, list[dict[str, Any]]]:
    """The demo agent's reply to ``question`` and its citations."""
    demo = vigia("demo")
    client = OpenAI(
        base_url=f"{live_server}/v1", api_key=str(demo["production_key"]), max_retries=0
    )
    completion = client.chat.completions.create(
        model=str(demo["agent"]), messages=[{"role": "user", "content": question}]
    )
    sherlock = (completion.model_extra or {})["sherlock"]
    assert sherlock["status"] == "ok"
    return completion.choices[0].message.content or "", sherlock["citations"]


@pytest.mark.parametrize(
    ("question", "document", "facts"),
    [
        ("How do I revoke an API key?", "claves-y-versiones.md", ["vigia key revoke", "Revocar"]),
        (
            "O que acontece quando o orçamento mensal é atingido?",
            "presupuesto-y-costos.pdf",
            ["se pausa", "alerta"],
        ),
    ],
)
def test_a_question_in_another_language_is_answered_from_the_spanish_documents(
    data_dir: Path, live_server: str, question: str, document: str, facts: list[str]
) -> None:
    text, citations = _ask(live_server, question)
    assert "[1]" in text and citations[0]["document"] == document
    assert all(fact in text for fact in facts), text


def test_a_two_part_question_quotes_a_sentence_for_each_part(
    data_dir: Path, live_server: str
) -> None:
    text, citations = _ask(live_server, "¿Cómo creo una clave de API y qué alcances puede tener?")
    assert {c["document"] for c in citations} == {"claves-y-versiones.md"}
    assert "vigia key create" in text  # how to create one
    assert all(scope in text for scope in ("chat", "decide", "guardrails:review")), text


@pytest.mark.parametrize(
    "question", ["What is the capital of Mongolia?", "Qual é a capital da Mongólia?"]
)
def test_a_question_the_documents_do_not_answer_gets_the_no_answer_reply(
    data_dir: Path, live_server: str, question: str
) -> None:
    text, citations = _ask(live_server, question)
    assert text == Replies().no_answer and citations == []
