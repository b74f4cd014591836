"""End to end with the real ``openai`` SDK against the live server: each kind of personal
data that used to slip past the output check is stopped before any of it reaches the
client, as JSON (``POST /v1/chat/completions``) and as SSE (``stream=true``).

The upstream model is a fake (``override_model``) that replays the text word by word:
the text is what matters here, the fake only delivers it as a model would.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.guardrails.upstream import UPSTREAM_MODEL, agent_on_upstream, ask, sherlock, streamed
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.function import FunctionModel
from vigia.llm.registry import override_model

# Personal-data checks only: the sentences below need no grounding to be sent.
PII_ONLY = GuardrailsConfig(grounding="off")
SAFE = "Prefiero no responder eso. Un miembro del equipo puede ayudarte."
QUESTION = "¿Cómo los contacto?"
OPENING = "Con gusto te ayudo. "

LEAKS = {
    "dni": ("Su DNI es 12345678Z y figura en la póliza.", "12345678"),
    "dni_dotted": ("El titular tiene el 12.345.678-Z registrado.", "345.678"),
    "nie": ("El NIE del titular es X1234567L, según la póliza.", "1234567"),
    "cpf": ("O CPF do titular é 529.982.247-25 e está ativo.", "982.247"),
    "cnpj": ("O CNPJ da loja é 11.222.333/0001-81 e está ativo.", "222.333"),
    "cnpj_plain": ("O CNPJ da loja é 11222333000181 e está ativo.", "11222333"),
    "card_zero_width": ("La tarjeta es 4111\u200b1111\u200b1111\u200b1111 y vence.", "1111"),
    "card_word_joiner": ("La tarjeta es 4111\u20601111\u20601111\u20601111 y vence.", "1111"),
    "card_nbsp": ("La tarjeta es 4111\u00a01111\u00a01111\u00a01111 y vence.", "1111"),
    "card_dashes": ("La tarjeta es 4111 - 1111 - 1111 - 1111 y vence.", "1111"),
    "email_split": ("Escribile a juan.perez@. example.com cuando quieras.", "juan.perez"),
    "email_sentence_end": ("Escribile a juan.perez@. Example.com cuando quieras.", "juan.perez"),
    "phone_spanish": ("Llamá a Juan al 612 345 678 cuando quieras.", "345"),
}


@pytest.fixture
def pieces() -> Iterator[list[str]]:
    """What the fake upstream streams; each test fills it."""
    chunks: list[str] = []
    with override_model(FunctionModel(lambda _: list(chunks)), name=UPSTREAM_MODEL):
        yield chunks


def word_by_word(text: str) -> list[str]:
    return [word + " " for word in text.split(" ")]


def answer(url: str, workspace: str, stream: bool) -> tuple[str, dict[str, object]]:
    """The text the client received and the final ``sherlock`` block, as JSON or SSE."""
    tenant = agent_on_upstream(workspace, PII_ONLY)
    if stream:
        return streamed(tenant, url, QUESTION)
    completion = ask(tenant, url, [{"role": "user", "content": QUESTION}])
    return completion.choices[0].message.content or "", sherlock(completion)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize("kind", list(LEAKS))
def test_each_kind_of_personal_data_is_stopped(
    live_server: str, pieces: list[str], kind: str, stream: bool
) -> None:
    leak, part = LEAKS[kind]
    pieces += [OPENING, *word_by_word(leak), "Gracias."]
    text, block = answer(live_server, f"pii-{kind[:12]}", stream)
    assert text == OPENING + SAFE
    assert part not in text
    assert block["status"] == "blocked" and block["guardrails"] == ["personal_data"]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_a_first_sentence_with_a_dni_is_never_released(
    live_server: str, pieces: list[str], stream: bool
) -> None:
    pieces += ["DNI 12345678Z. ", "Atendemos de lunes a viernes. ", "Escribí a ana@correo.com."]
    text, block = answer(live_server, "pii-primera", stream)
    assert text == SAFE and "12345678" not in text
    assert block["status"] == "blocked"


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
@pytest.mark.parametrize(
    "split",
    [
        ["El número es 12345678. ", "Z es la letra de control."],  # DNI and its letter
        ["Llamá al 612. ", "345 678 cuando quieras."],  # a phone cut by a sentence end
        ["Llamá al 11 45", "67-8901 cuando quieras."],  # a phone cut between two chunks
        ["Escribile a juan.perez@", ". Example.com es su dominio."],  # an e-mail
    ],
    ids=["dni_letter", "phone_sentences", "phone_chunks", "email"],
)
def test_a_value_split_across_sentences_or_chunks_is_held_until_complete(
    live_server: str, pieces: list[str], split: list[str], stream: bool
) -> None:
    pieces += [OPENING, *split, " Gracias."]
    text, block = answer(live_server, "pii-partido", stream)
    assert text == OPENING + SAFE
    assert block["guardrails"] == ["personal_data"]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_clean_text_with_invisible_characters_and_numbers_is_sent_unchanged(
    live_server: str, pieces: list[str], stream: bool
) -> None:
    reply = (
        "Abrimos a las 9.\u200b Tu pedido 12345678A sale el 17/05/2024. "
        "La versión 2.10.3 cuesta 1.234,56 €. Gracias."
    )
    pieces += word_by_word(reply)
    text, block = answer(live_server, "pii-limpio", stream)
    assert text.strip() == reply and block["status"] == "ok"
