"""``NaN``, ``Infinity`` and ``-Infinity`` are no JSON (RFC 8259 §6), though Python's
``json.loads`` reads them: on every surface a body holding one as a value is a 422 in the
surface's shape, as malformed JSON is, and nothing is stored. In a string they are text."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN
from tests.conftest import Tenant
from tests.stored import row_counts
from vigia.http.json_text import non_finite

JSON = {"Content-Type": "application/json"}


def _post(client: TestClient, method: str, path: str, raw: str, headers: dict[str, str]) -> dict:
    before = row_counts()
    response = client.request(method, path, content=raw.encode(), headers={**headers, **JSON})
    assert response.status_code == 422, response.text
    assert row_counts() == before
    return dict(response.json())


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_admin_budget_of_a_non_finite_number_is_422_list(
    client: TestClient, tenant: Tenant, constant: str
) -> None:
    body = _post(
        client,
        "PUT",
        f"/admin/workspaces/{tenant.workspace_id}/budget",
        f'{{"budget_usd": {constant}}}',
        ADMIN,
    )
    assert body == {
        "detail": [
            {
                "loc": ["body"],
                "msg": f"JSON decode error: {constant} is not a JSON number",
                "type": "json_invalid",
            }
        ]
    }
    workspaces = client.get("/admin/workspaces", headers=ADMIN).json()["workspaces"]
    assert [w["budget_usd"] for w in workspaces] == [None]


def test_decide_min_confidence_nan_is_422_list(client: TestClient, tenant: Tenant) -> None:
    raw = (
        '{"state": "hola", "min_confidence": NaN, "questions": {"q": '
        '{"type": "binary", "ask": "¿Saluda?"}}}'
    )
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    body = _post(client, "POST", "/v1/decide", raw, headers)
    assert body["detail"][0]["type"] == "json_invalid"


def test_review_attempt_infinity_is_422_list(client: TestClient, tenant: Tenant) -> None:
    raw = '{"turnKey": "t-1", "attempt": Infinity, "message": "hola", "reply": "chau"}'
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    body = _post(
        client, "POST", f"/api/external/v1/agents/{tenant.agent_id}/output-review", raw, headers
    )
    assert body["detail"][0]["msg"] == "JSON decode error: Infinity is not a JSON number"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"a": [1, NaN]}', "NaN"),
        ('{"a": {"b": -Infinity}}', "-Infinity"),
        ('{"a": "NaN", "b": "Infinity"}', None),  # text, not numbers
        ('{"a": 1e999}', None),  # overflows to inf, but it is a JSON number
        ("{NaN", None),  # malformed: the route says so
        ('{"a": 1}', None),
    ],
)
def test_non_finite_finds_the_constant_outside_strings(text: str, found: str | None) -> None:
    assert non_finite(text) == found
