"""An OpenAI-compatible upstream that records every request body it receives and asks for
``get_weather`` until the request carries a tool result, then restates that result.

What the model received is then read from the bodies, exactly as the provider got them.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.conftest import Tenant, make_tenant, serve_in_thread
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.db.session import session_scope
from vigia.llm.settings import ModelSettings

CALL_ID = "call_weather_1"
USAGE = {"prompt_tokens": 21, "completion_tokens": 9, "total_tokens": 30}


def _message(body: dict[str, Any]) -> dict[str, Any]:
    """The assistant's move: the result of the last tool message restated, or the call."""
    results = [m["content"] for m in body["messages"] if m.get("role") == "tool"]
    if results:
        return {"role": "assistant", "content": results[-1]}
    call = {"name": "get_weather", "arguments": json.dumps({"city": "Madrid"})}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": CALL_ID, "type": "function", "function": call}],
    }


def _events(base: dict[str, Any], message: dict[str, Any]) -> Iterator[dict[str, Any]]:
    def piece(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {**base, "object": "chat.completion.chunk", "choices": [choice]}

    if message.get("tool_calls"):
        call = message["tool_calls"][0]
        yield piece({"tool_calls": [{"index": 0, **call}]})
        yield piece({}, "tool_calls")
    else:
        yield piece({"role": "assistant", "content": message["content"]})
        yield piece({}, "stop")
    yield {**base, "object": "chat.completion.chunk", "choices": [], "usage": USAGE}


def create_scripted() -> tuple[Starlette, list[dict[str, Any]]]:
    """The app and the list each request body is appended to."""
    bodies: list[dict[str, Any]] = []

    async def completions(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        bodies.append(body)
        message = _message(body)
        base = {"id": "chatcmpl-scripted", "created": int(time.time()), "model": body["model"]}
        if not body.get("stream"):
            finish = "tool_calls" if message.get("tool_calls") else "stop"
            choice = {"index": 0, "finish_reason": finish, "message": message}
            return JSONResponse(
                {**base, "object": "chat.completion", "usage": USAGE, "choices": [choice]}
            )

        async def lines() -> AsyncIterator[str]:
            for event in _events(base, message):
                yield f"data: {json.dumps(event)}\n\n"
            yield "data: [DONE]\n\n"

        return StreamingResponse(lines(), media_type="text/event-stream")

    app = Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])
    return app, bodies


@contextmanager
def scripted_upstream() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Yields the upstream's ``/v1`` URL and the list of the request bodies it received."""
    app, bodies = create_scripted()
    with serve_in_thread(app) as url:
        yield url + "/v1", bodies


def agent_on_scripted(url: str, name: str = "acme", **patch: Any) -> Tenant:
    """A tenant whose published agent ``asistente`` runs on the scripted upstream at ``url``
    with the default guardrails (unless ``patch`` says otherwise)."""
    tenant = make_tenant(name=name, slug="asistente")
    allow_upstream(tenant.workspace_id, url)
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = ModelSettings(provider="openai", name="scripted", base_url=url)
        update_draft(session, agent, AgentPatch(model=model, **patch))
        publish(session, agent)
    return tenant
