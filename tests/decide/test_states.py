"""States: empty or meaningless ones abstain; objects and arrays read like the same text."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.decide.helpers import SPEC_BODY
from vigia.decide.texts import read_state

MESSAGE = "Me cobraron dos veces y quiero mi dinero de vuelta"


def _answers(
    client: TestClient, headers: dict[str, str], state: Any, **extra: Any
) -> dict[str, Any]:
    body = {**copy.deepcopy(SPEC_BODY), "state": state, **extra}
    response = client.post("/v1/decide", json=body, headers=headers)
    assert response.status_code == 200, response.text
    answers: dict[str, Any] = response.json()["answers"]
    return answers


@pytest.mark.parametrize(
    "state", [{}, [], "", "   ", "?!...", "¿¡ -- !?", {"mensaje": ""}, [None, {}, "  "]]
)
def test_meaningless_state_always_abstains(
    client: TestClient, headers: dict[str, str], state: Any
) -> None:
    answers = _answers(client, headers, state, min_confidence=0)
    for answer in answers.values():
        assert answer["abstain"] is True, answer
        assert answer["confidence"] == 0
    assert answers["equipo"]["probabilities"] == pytest.approx(
        {"facturacion": 0.3333, "envios": 0.3333, "ventas": 0.3333}, abs=1e-4
    )
    assert answers["reembolso"]["probability"] == 0.5


def test_meaningless_state_abstains_with_examples_too(
    client: TestClient, headers: dict[str, str], fake_encoder: None
) -> None:
    question = {
        "type": "choice",
        "ask": "¿Cuál?",
        "options": {"a": None, "b": None},
        "examples": [{"state": "uno", "answer": "a"}, {"state": "dos", "answer": "b"}],
        "min_confidence": 0,
    }
    body = {"state": {}, "questions": {"q": question}}
    response = client.post("/v1/decide", json=body, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["answers"]["q"]["abstain"] is True


@pytest.mark.parametrize("wrapped", [{"mensaje": MESSAGE}, [MESSAGE], [{"texto": MESSAGE}]])
def test_object_or_array_of_one_message_reads_exactly_as_the_text(
    client: TestClient, headers: dict[str, str], wrapped: Any
) -> None:
    assert _answers(client, headers, wrapped) == _answers(client, headers, MESSAGE)


def test_metadata_beside_the_message_only_nudges_the_answers(
    client: TestClient, headers: dict[str, str]
) -> None:
    as_text = _answers(client, headers, MESSAGE)
    as_object = _answers(client, headers, {"canal": "chat", "cliente": 4512, "mensaje": MESSAGE})
    for key, text_answer in as_text.items():
        assert as_object[key]["answer"] == text_answer["answer"]
    for option, p in as_text["equipo"]["probabilities"].items():
        assert as_object["equipo"]["probabilities"][option] == pytest.approx(p, abs=0.05)
    assert as_object["reembolso"]["probability"] == pytest.approx(
        as_text["reembolso"]["probability"], abs=0.05
    )


def test_state_text_splits_prose_from_facts() -> None:
    state = {
        "canal": "chat",
        "mensaje": MESSAGE,
        "pedido": {"numeroPedido": 12, "nota": ""},
        "tags": ["vip", "es"],
        "vacio": None,
    }
    read = read_state(state)
    assert read.prose == MESSAGE
    assert read.facts.splitlines() == [
        "canal: chat",
        "pedido numero pedido: 12",
        "tags: vip",
        "tags: es",
    ]
    assert read_state([" hola ", "adiós"]).prose == "hola\nadiós"
    assert read_state({}).meaningless and read_state("¿?").meaningless
    assert not read_state({"canal": "chat"}).meaningless
