"""The per-request cost limit: a request estimated over the budget is a 413 before the model
runs (nothing charged), one just under it is answered.

The fake encoder is used: the estimate depends on the texts' sizes, not on their vectors
(the model time it stands for is measured by ``bench/decide_cost.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from vigia.db.session import session_scope
from vigia.decide import cost, repository
from vigia.decide.inference import plan_question
from vigia.decide.schemas import DecideRequest
from vigia.decide.texts import read_state

pytestmark = pytest.mark.usefixtures("fake_encoder")


def _options(total: int, description: str | None = None) -> dict[str, Any]:
    """``total`` options spread evenly over as few choice questions as the schema allows."""
    count = -(-total // 256)
    sizes = [total // count + (1 if q < total % count else 0) for q in range(count)]
    return {
        f"q{q}": {
            "type": "choice",
            "ask": "¿Qué equipo?",
            "options": {f"opcion {q} {i}": description for i in range(n)},
        }
        for q, n in enumerate(sizes)
    }


def _estimate(body: dict[str, Any]) -> float:
    request = DecideRequest.model_validate(body)
    plans = [plan_question(q) for q in request.questions.values()]
    return cost.estimate_ms(read_state(request.state), plans)


def _largest_accepted() -> int:
    """The most bare options a request may carry (bisection on the estimate)."""
    low, high = 2, 64 * 256
    while low < high:
        middle = (low + high + 1) // 2
        if _estimate({"state": "hola", "questions": _options(middle)}) <= cost.BUDGET_MS:
            low = middle
        else:
            high = middle - 1
    return low


def _used(tenant: Tenant) -> int:
    with session_scope() as session:
        return repository.used(session, tenant.workspace_id, repository.current_month())


@pytest.fixture(autouse=True)
def _ample_quota(set_quota: Callable[[int], None]) -> None:
    set_quota(10**9)


def test_largest_spec_request_is_refused_before_the_model_and_not_counted(
    client: TestClient, headers: dict[str, str], tenant: Tenant
) -> None:
    body = {"state": "Me cobraron dos veces", "questions": _options(64 * 256)}
    response = client.post("/v1/decide", json=body, headers=headers)
    assert response.status_code == 413
    payload = response.json()
    assert payload["error"] == "too_costly"
    assert "model time" in payload["detail"] and "Cost limit" in payload["detail"]
    assert _used(tenant) == 0


def test_request_just_under_the_budget_is_answered_and_one_more_option_is_not(
    client: TestClient, headers: dict[str, str]
) -> None:
    largest = _largest_accepted()
    assert 512 < largest < 64 * 256
    under = {"state": "hola", "questions": _options(largest)}
    over = {"state": "hola", "questions": _options(largest + 1)}
    answered = client.post("/v1/decide", json=under, headers=headers)
    assert answered.status_code == 200
    assert sum(len(a["probabilities"]) for a in answered.json()["answers"].values()) == largest
    assert client.post("/v1/decide", json=over, headers=headers).status_code == 413


def test_repeated_texts_are_read_once() -> None:
    same = {f"q{q}": _options(256)["q0"] for q in range(64)}
    assert _estimate({"state": "hola", "questions": same}) == _estimate(
        {"state": "hola", "questions": {"q0": same["q0"]}}
    )


def test_examples_are_priced_for_e5_and_can_tip_a_request_over() -> None:
    question = _options(8)["q0"]
    zero_shot = {"state": "hola", "questions": {"q": question}}
    example = {"state": "quiero mi dinero de vuelta " * 40, "answer": "opcion 0 0"}
    with_examples = {"state": "hola", "questions": {"q": {**question, "examples": [example]}}}
    assert _estimate(with_examples) > 10 * _estimate(zero_shot)
    many = [{**example, "state": f"{i} {example['state']}"} for i in range(64)]
    heavy = {"state": "hola", "questions": {"q": {**question, "examples": many}}}
    assert _estimate(zero_shot) <= cost.BUDGET_MS < _estimate(heavy)


def test_dense_characters_weigh_more_than_latin_prose() -> None:
    assert cost.size("señal clara, ¿sí?") == len("señal clara, ¿sí?")
    assert cost.size("漢字") == 2 * cost.DENSE_WEIGHT
    assert cost.size("a1") == 1 + cost.DENSE_WEIGHT


def test_systemone_has_the_same_limit(client: TestClient, headers: dict[str, str]) -> None:
    questions = {
        f"q{q}": {"type": "choice", "criteria": {f"c{q} {i}": None for i in range(256)}}
        for q in range(64)
    }
    body = {"state": "hola", "questions": questions}
    response = client.post("/v1/systemone", json=body, headers=headers)
    assert response.status_code == 413
    assert response.json()["error"] == "too_costly"
