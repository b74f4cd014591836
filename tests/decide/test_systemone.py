"""``POST /v1/systemone``: the older twin, per the spec's comparison table."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.decide.helpers import SPEC_BODY
from vigia.decide.spec_example import SPEC_QUESTIONS


def test_systemone_answers_noul_choice_and_score(
    client: TestClient, headers: dict[str, str]
) -> None:
    body = {
        "state": "Me cobraron dos veces y quiero que me devuelvan el dinero",
        "questions": {
            "reembolso": {"type": "noul", "instructions": "¿Pide un reembolso?"},
            "equipo": {
                "type": "choice",
                "instructions": {"tarea": "elegir el equipo"},
                "criteria": {"facturacion": "Pagos, cobros, reembolsos", "envios": "Entregas"},
            },
            "urgencia": {"type": "score", "criteria": ["baja", "media", "alta"]},
        },
    }
    response = client.post("/v1/systemone", json=body, headers=headers)
    assert response.status_code == 200, response.text
    data = response.json()
    answers = data["answers"]
    assert answers["reembolso"]["type"] == "noul" and answers["reembolso"]["noul"] is True
    assert answers["equipo"]["choice"] == "facturacion"
    score = answers["urgencia"]
    assert 0 <= score["score"] <= 2
    assert score["legend"] == {"baja": 0, "media": 1, "alta": 2}
    for answer in answers.values():
        assert "abstain" not in answer and "confidence" not in answer
    assert set(data["usage"]) == {"input_tokens"} and data["usage"]["input_tokens"] > 0
    assert data["model"].startswith("vigia-decide-")


@pytest.mark.usefixtures("fake_encoder")
def test_systemone_and_decide_share_the_model(client: TestClient, headers: dict[str, str]) -> None:
    decide = client.post("/v1/decide", json=SPEC_BODY, headers=headers).json()["answers"]
    body = {
        "state": SPEC_BODY["state"],
        "questions": {
            "equipo": {"type": "choice", "criteria": SPEC_QUESTIONS["equipo"]["options"]},
            "reembolso": {"type": "noul", "instructions": "¿Pide un reembolso?"},
        },
    }
    twin = client.post("/v1/systemone", json=body, headers=headers).json()["answers"]
    assert twin["equipo"]["choice"] == decide["equipo"]["answer"]
    assert twin["equipo"]["probabilities"] == decide["equipo"]["probabilities"]
    assert twin["reembolso"]["probability"] == decide["reembolso"]["probability"]


def test_systemone_needs_the_decide_scope(client: TestClient) -> None:
    response = client.post("/v1/systemone", json={"state": "x", "questions": {}})
    assert response.status_code == 401
    assert set(response.json()) == {"detail", "error"}
    body = response.json()
    assert body["error"] == "unauthorized" and "missing API key" in body["detail"]
