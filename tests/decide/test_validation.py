"""Every limit of the decide and systemone bodies answers 422 in FastAPI's list shape."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import make_tenant
from tests.decide.helpers import SPEC_BODY
from tests.stored import row_counts


def _body(**changes: Any) -> dict[str, Any]:
    body = copy.deepcopy(SPEC_BODY)
    body.update(changes)
    return body


def _question(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"type": "choice", "ask": "¿Qué?", "options": {"a": None, "b": None}}
    base.update(fields)
    return {k: v for k, v in base.items() if v is not ...}


def _options(count: int) -> dict[str, None]:
    return {f"o{i}": None for i in range(count)}


INVALID = {
    "no questions": _body(questions={}),
    "65 questions": _body(questions={f"q{i}": _question() for i in range(65)}),
    "missing state": {"questions": SPEC_BODY["questions"]},
    "state over 32000 chars": _body(state="x" * 32_001),
    "object state over limit": _body(state={"texto": "x" * 32_001}),
    "state of wrong type": _body(state=12),
    "unknown type": _body(questions={"q": _question(type="ranking")}),
    "ask missing": _body(questions={"q": _question(ask=...)}),
    "ask empty": _body(questions={"q": _question(ask="")}),
    "ask over 2000 chars": _body(questions={"q": _question(ask="x" * 2001)}),
    "choice without options": _body(questions={"q": _question(options=...)}),
    "choice with 1 option": _body(questions={"q": _question(options=_options(1))}),
    "choice with 257 options": _body(questions={"q": _question(options=_options(257))}),
    "option description over 2000": _body(
        questions={"q": _question(options={"a": "x" * 2001, "b": None})}
    ),
    "empty option key": _body(questions={"q": _question(options={"": None, "b": None})}),
    "choice with levels": _body(questions={"q": _question(levels=["a", "b"])}),
    "scale without levels": _body(questions={"q": _question(type="scale", options=...)}),
    "scale with 1 level": _body(
        questions={"q": _question(type="scale", options=..., levels=["a"])}
    ),
    "scale with 11 levels": _body(
        questions={"q": _question(type="scale", options=..., levels=[str(i) for i in range(11)])}
    ),
    "scale with repeated levels": _body(
        questions={"q": _question(type="scale", options=..., levels=["a", "b", "a"])}
    ),
    "scale with options": _body(questions={"q": _question(type="scale", levels=["a", "b"])}),
    "binary with options": _body(questions={"q": _question(type="binary")}),
    "question min_confidence over 1": _body(questions={"q": _question(min_confidence=1.5)}),
    "question min_confidence under 0": _body(questions={"q": _question(min_confidence=-0.1)}),
    "request min_confidence over 1": _body(min_confidence=1.01),
    "request min_confidence not a number": _body(min_confidence="alta"),
    "request min_confidence true": _body(min_confidence=True),
    "question min_confidence false": _body(questions={"q": _question(min_confidence=False)}),
    "unknown question field": _body(questions={"q": _question(option={"a": None})}),
    "question key too long": _body(questions={"k" * 129: _question()}),
    "example answer not an option": _body(
        questions={"q": _question(examples=[{"state": "hola", "answer": "c"}])}
    ),
    "binary example answer not a boolean": _body(
        questions={
            "q": _question(type="binary", options=..., examples=[{"state": "x", "answer": "si"}])
        }
    ),
    "binary example answer 1": _body(
        questions={
            "q": _question(type="binary", options=..., examples=[{"state": "x", "answer": 1}])
        }
    ),
    "example state over 4000 chars": _body(
        questions={"q": _question(examples=[{"state": "x" * 4001, "answer": "a"}])}
    ),
    "2049 examples": _body(
        questions={"q": _question(examples=[{"state": "x", "answer": "a"}] * 2049)}
    ),
    "2050 examples in one request": _body(
        questions={
            "q1": _question(examples=[{"state": "x", "answer": "a"}] * 1025),
            "q2": _question(examples=[{"state": "y", "answer": "a"}] * 1025),
        }
    ),
}


@pytest.mark.parametrize("case", list(INVALID))
def test_decide_limit_answers_422_list(
    case: str, client: TestClient, headers: dict[str, str]
) -> None:
    response = client.post("/v1/decide", json=INVALID[case], headers=headers)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail
    assert all({"loc", "msg", "type"} <= set(item) for item in detail)


def test_limits_at_the_edge_are_accepted(
    client: TestClient, headers: dict[str, str], fake_encoder: None
) -> None:
    body = _body(
        state="x" * 32_000,
        questions={
            **{f"q{i}": _question() for i in range(61)},
            "wide": _question(ask="x" * 2000, options=_options(256)),
            "scale": _question(type="scale", options=..., levels=[str(i) for i in range(10)]),
            "yes": _question(type="binary", options=..., min_confidence=1),
        },
        min_confidence=0,
    )
    response = client.post("/v1/decide", json=body, headers=headers)
    assert response.status_code == 200, response.text
    assert len(response.json()["answers"]) == 64


def test_missing_key_is_401_with_detail_and_error(client: TestClient) -> None:
    response = client.post("/v1/decide", json=SPEC_BODY)
    assert response.status_code == 401
    assert set(response.json()) == {"detail", "error"}
    body = response.json()
    assert body["error"] == "unauthorized" and "missing API key" in body["detail"]


def test_key_without_decide_scope_is_403(client: TestClient) -> None:
    tenant = make_tenant(name="otra", scopes=["chat"])
    response = client.post(
        "/v1/decide", json=SPEC_BODY, headers={"Authorization": f"Bearer {tenant.production_key}"}
    )
    assert response.status_code == 403
    detail = "this API key lacks the 'decide' scope"
    assert response.json() == {"detail": detail, "error": "forbidden"}


SYSTEMONE_INVALID = {
    "no questions": {"state": "x", "questions": {}},
    "blank state (no abstention to give)": {"state": "  ", "questions": {"q": {"type": "noul"}}},
    "noul with criteria": {"state": "x", "questions": {"q": {"type": "noul", "criteria": ["a"]}}},
    "choice without criteria": {"state": "x", "questions": {"q": {"type": "choice"}}},
    "score with 11 criteria": {
        "state": "x",
        "questions": {"q": {"type": "score", "criteria": [str(i) for i in range(11)]}},
    },
    "instructions over 2000": {
        "state": "x",
        "questions": {"q": {"type": "noul", "instructions": "x" * 2001}},
    },
    "decide type": {"state": "x", "questions": {"q": {"type": "binary"}}},
}


@pytest.mark.parametrize("case", list(SYSTEMONE_INVALID))
def test_systemone_limit_answers_422_list(
    case: str, client: TestClient, headers: dict[str, str]
) -> None:
    response = client.post("/v1/systemone", json=SYSTEMONE_INVALID[case], headers=headers)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail
    assert all({"loc", "msg", "type"} <= set(item) and item["loc"][0] == "body" for item in detail)


SURROGATE_MSG = "String should not contain a lone surrogate (a \\ud800-\\udfff escape)"
BINARY = '{"a": {"type": "binary", "ask": "¿Pide un reembolso?"}}'
SURROGATE_BODIES = {
    "decide string state": (
        "/v1/decide",
        f'{{"state": "hola \\ud800 mundo", "questions": {BINARY}}}',
        ["body", "state"],
    ),
    "decide object key": (
        "/v1/decide",
        f'{{"state": {{"hola \\ud800 mundo": "x"}}, "questions": {BINARY}}}',
        ["body", "state", "hola \\ud800 mundo"],
    ),
    "decide nested value": (
        "/v1/decide",
        f'{{"state": {{"canal": ["chat", "\\udfff"]}}, "questions": {BINARY}}}',
        ["body", "state", "canal", 1],
    ),
    "systemone state": (
        "/v1/systemone",
        '{"state": "hola \\ud800 mundo", "questions": {"a": {"type": "noul"}}}',
        ["body", "state"],
    ),
}


@pytest.mark.parametrize("case", list(SURROGATE_BODIES))
def test_lone_surrogate_answers_422_list_and_stores_nothing(
    case: str, client: TestClient, headers: dict[str, str]
) -> None:
    path, raw, loc = SURROGATE_BODIES[case]
    before = row_counts()
    response = client.post(
        path, content=raw.encode(), headers={**headers, "Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json() == {
        "detail": [{"loc": loc, "msg": SURROGATE_MSG, "type": "string_unicode"}]
    }
    assert row_counts() == before


@pytest.mark.parametrize("path", ["/v1/decide", "/v1/systemone"])
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_oversized_body_is_413_with_detail_and_error(
    path: str, chunked: bool, client: TestClient, headers: dict[str, str]
) -> None:
    raw = b'{"state": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    content = iter([raw[i : i + 65536] for i in range(0, len(raw), 65536)]) if chunked else raw
    response = client.post(
        path, content=content, headers={**headers, "Content-Type": "application/json"}
    )
    assert ("content-length" in response.request.headers) is not chunked
    assert response.status_code == 413
    assert response.json() == {
        "detail": "request body larger than 2097152 bytes",
        "error": "too_large",
    }
