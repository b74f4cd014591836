"""Configuring tools: a workspace's tool hosts (admin API) and an agent's HTTP tools."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import ADMIN, chat
from tests.cli.test_cli import vigia
from tests.conftest import Tenant

WEATHER = {
    "name": "get_weather",
    "description": "Current weather",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    "url": "https://api.weather.example/v1/{city}",
}


def test_tool_hosts_are_normalized_and_shown_with_the_workspace(
    client: TestClient, tenant: Tenant
) -> None:
    r = client.put(
        f"/admin/workspaces/{tenant.workspace_name}/tool-hosts",
        json={
            "hosts": ["API.weather.example", "10.1.2.3/8", "api.weather.example", "*.corp.example"]
        },
        headers=ADMIN,
    )
    assert r.status_code == 200
    assert r.json()["tool_hosts"] == ["api.weather.example", "10.0.0.0/8", "*.corp.example"]
    listed = client.get("/admin/workspaces", headers=ADMIN).json()["workspaces"]
    assert listed[0]["tool_hosts"] == ["api.weather.example", "10.0.0.0/8", "*.corp.example"]


def test_an_invalid_tool_host_is_refused_and_nothing_changes(
    client: TestClient, tenant: Tenant
) -> None:
    url = f"/admin/workspaces/{tenant.workspace_name}/tool-hosts"
    assert (
        client.put(url, json={"hosts": ["api.weather.example"]}, headers=ADMIN).status_code == 200
    )
    r = client.put(url, json={"hosts": ["ok.example", "http://evil.example/x"]}, headers=ADMIN)
    assert r.status_code == 422
    assert r.json() == {"detail": "invalid host entry: 'http://evil.example/x'"}
    listed = client.get("/admin/workspaces", headers=ADMIN).json()["workspaces"]
    assert listed[0]["tool_hosts"] == ["api.weather.example"]
    too_many = client.put(url, json={"hosts": [f"h{i}.example" for i in range(101)]}, headers=ADMIN)
    assert too_many.status_code == 422
    assert too_many.json()["detail"][0]["loc"] == ["body", "hosts"]


def test_an_agent_declares_http_tools(client: TestClient, tenant: Tenant) -> None:
    base = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    tool = {**WEATHER, "headers": [{"name": "X-Api-Key", "env": "WEATHER_KEY"}]}
    r = client.patch(base, json={"tools": [tool], "tool_steps": 3}, headers=ADMIN)
    assert r.status_code == 200
    draft = r.json()["draft"]
    assert draft["tool_steps"] == 3
    assert draft["tools"][0]["name"] == "get_weather"
    assert draft["tools"][0]["method"] == "GET" and draft["tools"][0]["timeout_s"] == 10.0
    assert draft["tools"][0]["headers"] == [
        {"name": "X-Api-Key", "value": None, "env": "WEATHER_KEY", "prefix": ""}
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"parameters": {"type": "object", "properties": {"x": {"type": "nope"}}}},
            "parameters is not a valid JSON schema",
        ),
        ({"parameters": {"type": "string"}}, "parameters must describe an object"),
        (
            {"parameters": {"$ref": "https://schemas.example/x.json"}},
            "may only use local references",
        ),
        ({"url": "https://{host}.example/x"}, "placeholders may only stand in the path"),
        ({"url": "ftp://files.example/x"}, "url must be an http(s) URL"),
        ({"url": "https://user:pw@api.example/x"}, "url cannot carry credentials"),
        (
            {"headers": [{"name": "Authorization", "value": "x", "env": "TOKEN"}]},
            "exactly one of 'value' or 'env'",
        ),
        ({"name": "get weather"}, "String should match pattern"),
    ],
)
def test_invalid_tools_are_refused_and_the_draft_is_unchanged(
    client: TestClient, tenant: Tenant, change: dict[str, Any], message: str
) -> None:
    base = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    r = client.patch(base, json={"tools": [{**WEATHER, **change}]}, headers=ADMIN)
    assert r.status_code == 422
    assert any(message in e["msg"] for e in r.json()["detail"]), r.json()
    assert client.get(base, headers=ADMIN).json()["draft"]["tools"] == []


def test_tool_names_are_unique(client: TestClient, tenant: Tenant) -> None:
    base = f"/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
    r = client.patch(base, json={"tools": [WEATHER, WEATHER]}, headers=ADMIN)
    assert r.status_code == 422
    assert "tool names must be unique: get_weather" in r.json()["detail"][0]["msg"]


def test_the_embedded_model_answers_a_request_with_client_tools(
    client: TestClient, tenant: Tenant
) -> None:
    tool = {"type": "function", "function": {"name": "get_weather", "parameters": {}}}
    status, body = chat(
        client,
        tenant.production_key,
        tenant.agent_slug,
        "¿Atienden de lunes a viernes?",
        tools=[tool],
        tool_choice="required",
    )
    assert status == 200
    choice = body["choices"][0]
    assert choice["finish_reason"] == "stop" and "tool_calls" not in choice["message"]
    assert "lunes a viernes" in choice["message"]["content"]


def test_oversized_tool_schemas_are_refused(client: TestClient, tenant: Tenant) -> None:
    huge = {"type": "object", "description": "x" * 70_000}
    tool = {"type": "function", "function": {"name": "f", "parameters": huge}}
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola", tools=[tool])
    assert status == 422
    assert body == {
        "detail": "tools.0.function.parameters: Value error, longer than 64000 characters as JSON"
    }


def test_the_cli_sets_tool_hosts() -> None:
    vigia("workspace", "create", "acme")
    shown = vigia("workspace", "tool-hosts", "acme", "API.example.com", "127.0.0.1")
    assert shown["tool_hosts"] == ["api.example.com", "127.0.0.1"]
    assert vigia("workspace", "tool-hosts", "acme")["tool_hosts"] == []
