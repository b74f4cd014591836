"""End to end with the real ``openai`` SDK: personal data never reaches a streaming client,
whether it is split across two sentences, obfuscated or spelled out in words; and cited
passages' snippets are redacted like the reply.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.guardrails.upstream import UPSTREAM_MODEL, agent_on_upstream, streamed
from vigia.agents.schemas import AgentConfig
from vigia.engine.stages.generation import Generation
from vigia.engine.turn import Turn, TurnRequest
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.function import FunctionModel
from vigia.llm.protocol import Passage
from vigia.llm.registry import override_model

# Personal-data checks only: the sentences below need no grounding to be sent.
PII_ONLY = GuardrailsConfig(grounding="off")
SAFE = "Prefiero no responder eso. Un miembro del equipo puede ayudarte."
QUESTION = "¿Cómo los contacto?"


@pytest.fixture
def pieces() -> Iterator[list[str]]:
    """What the fake upstream streams; each test fills it."""
    chunks: list[str] = []
    with override_model(FunctionModel(lambda _: list(chunks)), name=UPSTREAM_MODEL):
        yield chunks


def test_a_phone_split_across_two_sentences_is_never_sent_in_part(
    live_server: str, pieces: list[str]
) -> None:
    pieces += [
        "Con gusto te ayudo. ",
        "El celular de Juan es +54 9 11. ",
        "4567-8901 es el ",
        "resto.",
    ]
    text, sherlock = streamed(agent_on_upstream("partido", PII_ONLY), live_server, QUESTION)
    assert text.startswith("Con gusto te ayudo.")
    assert "+54" not in text and "9 11" not in text and "4567" not in text
    assert text.endswith(SAFE)
    assert sherlock["status"] == "blocked" and sherlock["guardrails"] == ["personal_data"]


@pytest.mark.parametrize(
    "leak",
    [
        "Escribile a juan.perez [at] example [dot] com cuando quieras.",
        "Escribile a juan.perez (arroba) example (punto) com cuando quieras.",
        "Su tarjeta es cuatro uno uno uno uno uno uno uno uno uno uno uno uno uno uno uno.",
    ],
)
def test_obfuscated_and_spelled_out_personal_data_never_reach_the_client(
    live_server: str, pieces: list[str], leak: str
) -> None:
    words = leak.split(" ")
    pieces += ["Con gusto te ayudo. ", *(w + " " for w in words)]
    text, sherlock = streamed(agent_on_upstream("oculto", PII_ONLY), live_server, QUESTION)
    assert text == f"Con gusto te ayudo. {SAFE}"
    assert sherlock["guardrails"] == ["personal_data"]


def test_a_sentence_ending_in_a_number_is_released_with_the_next_when_it_is_clean(
    live_server: str, pieces: list[str]
) -> None:
    pieces += ["Abrimos a las 9. ", "Cerramos a las 18. ", "Gracias."]
    text, sherlock = streamed(agent_on_upstream("limpio", PII_ONLY), live_server, QUESTION)
    assert text == "Abrimos a las 9. Cerramos a las 18. Gracias."
    assert sherlock["status"] == "ok"


def test_cited_snippets_are_redacted_like_the_reply() -> None:
    passage = Passage(
        text="Reintegros: escribí a reintegros@seguros.com o llamá al +54 9 11 4567-8901 "
        "de lunes a viernes. El trámite demora 10 días hábiles.",
        document_id="d1",
        document="reintegros.md",
        score=0.9,
    )
    config = AgentConfig(instructions="Sos un asistente de seguros.", guardrails=PII_ONLY)
    turn = Turn(TurnRequest("w", "a", "¿Cómo pido un reintegro?"), "r", config, 1, "c", True)
    turn.passages = [passage]
    reply = "Escribí o llamá de lunes a viernes [1]."
    model = FunctionModel(lambda _: [reply])
    generation = Generation(turn, model)
    assert "".join(d.text for d in generation.stream()) == reply
    [citation] = generation.citations.citations()
    # The snippet is the sentence the reply draws on, which holds the contact data.
    assert citation.snippet.startswith("Reintegros: escribí a")
    assert "4567" not in citation.snippet and "reintegros@seguros.com" not in citation.snippet
    assert "[phone]" in citation.snippet and "[email]" in citation.snippet
