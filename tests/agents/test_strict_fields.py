"""The admin API reads an agent's flags and an evaluation case's counts as the published
schema types them: ``1`` or ``"true"`` is no boolean, ``"5"`` or ``true`` no integer. Each is
a 422 in FastAPI's list shape, and the stored agent and cases stay as they were."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN
from tests.conftest import Tenant
from tests.stored import row_counts


def _refused(response: Any, loc: list[str | int], kind: str) -> None:
    assert response.status_code == 422, response.text
    (error,) = response.json()["detail"]
    assert error["loc"] == loc and error["type"] == kind


@pytest.mark.parametrize("value", [1, 0, "true", "no"])
def test_handoff_on_request_takes_only_true_or_false(
    client: TestClient, tenant: Tenant, value: object
) -> None:
    agents = f"/admin/workspaces/{tenant.workspace_id}/agents"
    before = row_counts()
    agent = client.get(f"{agents}/asistente", headers=ADMIN).json()
    patched = client.patch(f"{agents}/asistente", json={"handoff_on_request": value}, headers=ADMIN)
    _refused(patched, ["body", "handoff_on_request"], "bool_type")
    created = client.post(
        agents, json={"slug": "nuevo", "handoff_on_request": value}, headers=ADMIN
    )
    _refused(created, ["body", "handoff_on_request"], "bool_type")
    assert client.get(f"{agents}/asistente", headers=ADMIN).json() == agent
    assert row_counts() == before


def test_handoff_on_request_false_is_stored(client: TestClient, tenant: Tenant) -> None:
    url = f"/admin/workspaces/{tenant.workspace_id}/agents/asistente"
    response = client.patch(url, json={"handoff_on_request": False}, headers=ADMIN)
    assert response.status_code == 200, response.text
    assert client.get(url, headers=ADMIN).json()["draft"]["handoff_on_request"] is False


@pytest.mark.parametrize("value", ["5", True])
def test_an_eval_case_max_chars_takes_only_a_number(
    client: TestClient, tenant: Tenant, value: object
) -> None:
    before = row_counts()
    response = client.post(
        f"/admin/workspaces/{tenant.workspace_id}/agents/asistente/eval-cases",
        json={"input": "hola", "assertions": {"max_chars": value}},
        headers=ADMIN,
    )
    _refused(response, ["body", "assertions", "max_chars"], "int_type")
    assert row_counts() == before
