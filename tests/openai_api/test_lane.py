"""The hot path (``vigia.openai_api.lane``) and the FastAPI route answer a turn alike: a
JSON body sent as ``application/json`` takes the lane, the same body under another JSON
content type goes on to the route; both are stored as turns of the same conversation."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.stored import row_counts


def _turn(client: TestClient, tenant: Tenant, content_type: str, **extra: str) -> dict[str, object]:
    body = {"model": tenant.agent_slug, "messages": [{"role": "user", "content": "hola"}]}
    headers = {
        "Authorization": f"Bearer {tenant.production_key}",
        "Content-Type": content_type,
        **extra,
    }
    response = client.post("/v1/chat/completions", content=json.dumps(body), headers=headers)
    assert response.status_code == 200, response.text
    answer: dict[str, object] = response.json()
    return answer


def test_the_lane_and_the_route_answer_and_store_a_turn_alike(
    client: TestClient, tenant: Tenant
) -> None:
    before = row_counts()
    lane = _turn(client, tenant, "application/json")
    conversation = str(lane["sherlock"]["conversation_id"])  # type: ignore[index]
    route = _turn(
        client, tenant, "application/vnd.api+json", **{"X-Sherlock-Conversation": conversation}
    )
    assert set(lane) == set(route)
    assert lane["object"] == route["object"] == "chat.completion"
    assert lane["choices"] == route["choices"]
    assert route["sherlock"]["conversation_id"] == conversation  # type: ignore[index]
    after = row_counts()
    assert after["runs"] == before["runs"] + 2
    assert after["messages"] == before["messages"] + 4


def test_an_invalid_key_is_refused_by_the_lane_in_the_surface_shape(
    client: TestClient, tenant: Tenant
) -> None:
    body = {"model": tenant.agent_slug, "messages": [{"role": "user", "content": "hola"}]}
    response = client.post(
        "/v1/chat/completions", json=body, headers={"Authorization": "Bearer sk-vigia-nope"}
    )
    assert response.status_code == 401
    assert set(response.json()) == {"detail"}
