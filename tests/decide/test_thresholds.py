"""Abstention thresholds: the question's, else the request's, else the calibrated default.

The fake encoder is used: which answer comes out does not matter, only the threshold.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vigia.decide import service
from vigia.decide.calibration import get_calibration


def _ask(
    client: TestClient, headers: dict[str, str], own: float | None, request: float | None
) -> dict[str, Any]:
    question: dict[str, Any] = {
        "type": "choice",
        "ask": "¿Cuál?",
        "options": {"a": None, "b": None},
    }
    if own is not None:
        question["min_confidence"] = own
    body: dict[str, Any] = {"state": "algo", "questions": {"q": question, "other": {**question}}}
    body["questions"]["other"].pop("min_confidence", None)
    if request is not None:
        body["min_confidence"] = request
    response = client.post("/v1/decide", json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["answers"]


@pytest.mark.usefixtures("fake_encoder")
def test_question_threshold_wins_over_request(client: TestClient, headers: dict[str, str]) -> None:
    answers = _ask(client, headers, own=0.0, request=1.0)
    assert answers["q"]["abstain"] is False  # its own 0 wins
    assert answers["other"]["abstain"] is True  # the request's 1 applies


@pytest.mark.usefixtures("fake_encoder")
def test_request_threshold_wins_over_default(
    client: TestClient, headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    strict = replace(
        get_calibration(), default_min_confidence={"choice": 1.0, "scale": 1.0, "binary": 1.0}
    )
    monkeypatch.setattr(service, "get_calibration", lambda: strict)
    answers = _ask(client, headers, own=None, request=0.0)
    assert answers["q"]["abstain"] is False and answers["other"]["abstain"] is False


@pytest.mark.usefixtures("fake_encoder")
@pytest.mark.parametrize(("default", "abstains"), [(1.0, True), (0.0, False)])
def test_calibrated_default_applies_when_none_is_set(
    client: TestClient,
    headers: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    default: float,
    abstains: bool,
) -> None:
    calibration = replace(
        get_calibration(), default_min_confidence={"choice": default, "scale": 0.5, "binary": 0.5}
    )
    monkeypatch.setattr(service, "get_calibration", lambda: calibration)
    answers = _ask(client, headers, own=None, request=None)
    assert answers["q"]["abstain"] is abstains


def test_shipped_defaults_cover_every_type() -> None:
    calibration = get_calibration()
    for defaults in (
        calibration.default_min_confidence,
        calibration.default_min_confidence_examples,
    ):
        assert set(defaults) == {"choice", "scale", "binary"}
        assert all(0 <= v <= 1 for v in defaults.values())


@pytest.mark.usefixtures("fake_encoder")
def test_answers_from_examples_use_the_examples_default(
    client: TestClient, headers: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    calibration = replace(
        get_calibration(),
        default_min_confidence={"choice": 0.0, "scale": 0.0, "binary": 0.0},
        default_min_confidence_examples={"choice": 1.0, "scale": 1.0, "binary": 1.0},
    )
    monkeypatch.setattr(service, "get_calibration", lambda: calibration)
    plain: dict[str, Any] = {"type": "choice", "ask": "¿Cuál?", "options": {"a": None, "b": None}}
    taught = {
        **plain,
        "examples": [{"state": "uno", "answer": "a"}, {"state": "dos", "answer": "b"}],
    }
    body = {"state": "algo", "questions": {"plain": plain, "taught": taught}}
    response = client.post("/v1/decide", json=body, headers=headers)
    assert response.status_code == 200, response.text
    answers = response.json()["answers"]
    assert answers["plain"]["abstain"] is False
    assert answers["taught"]["abstain"] is True


@pytest.mark.usefixtures("fake_encoder")
def test_abstain_is_judged_on_the_confidence_shown(
    client: TestClient, headers: dict[str, str]
) -> None:
    first = _ask(client, headers, own=None, request=0.0)["q"]
    at = _ask(client, headers, own=first["confidence"], request=None)["q"]
    above = _ask(client, headers, own=min(1.0, first["confidence"] + 0.0001), request=None)["q"]
    assert at["abstain"] is False
    assert above["abstain"] is True
