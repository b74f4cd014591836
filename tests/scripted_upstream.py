"""An OpenAI-compatible upstream over real HTTP whose answers a test scripts: text, JSON
(when the request carries ``response_format``) or tool calls, as JSON or SSE chunks.

Agents reach it through Vigia's own OpenAI client (``vigia.llm.openai_compat``), so what the
real clients see went through the same path as a hosted model's answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class Call:
    """A tool call the scripted upstream asks for."""

    id: str
    name: str
    arguments: dict[str, Any]


Script = Callable[[dict[str, Any]], str | list[Call]]
"""Gets the request body the upstream received; answers text or tool calls."""


@dataclass
class ScriptedUpstream:
    url: str
    bodies: list[dict[str, Any]] = field(default_factory=list)


USAGE = {"prompt_tokens": 30, "completion_tokens": 12, "total_tokens": 42}


def _message(answer: str | list[Call]) -> dict[str, Any]:
    if isinstance(answer, str):
        return {"role": "assistant", "content": answer}
    calls = [
        {
            "id": c.id,
            "type": "function",
            "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
        }
        for c in answer
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def _deltas(answer: str | list[Call]) -> Iterator[dict[str, Any]]:
    if isinstance(answer, str):
        for start in range(0, len(answer), 12):
            yield {"content": answer[start : start + 12]}
        return
    for index, c in enumerate(answer):
        head = {"index": index, "id": c.id, "type": "function"}
        yield {"tool_calls": [{**head, "function": {"name": c.name, "arguments": ""}}]}
        arguments = json.dumps(c.arguments)
        yield {"tool_calls": [{"index": index, "function": {"arguments": arguments}}]}


def _app(script: Script, bodies: list[dict[str, Any]]) -> Starlette:
    async def completions(request: Request) -> Response:
        body: dict[str, Any] = await request.json()
        bodies.append(body)
        answer = script(body)
        finish = "stop" if isinstance(answer, str) else "tool_calls"
        base = {"id": "chatcmpl-scripted", "created": int(time.time()), "model": body["model"]}
        if not body.get("stream"):
            choice = {"index": 0, "finish_reason": finish, "message": _message(answer)}
            reply = {**base, "object": "chat.completion", "usage": USAGE, "choices": [choice]}
            return JSONResponse(reply)

        async def events() -> AsyncIterator[str]:
            chunk = {**base, "object": "chat.completion.chunk"}
            for delta in _deltas(answer):
                piece = {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
                yield f"data: {json.dumps(piece)}\n\n"
            last = {"index": 0, "delta": {}, "finish_reason": finish}
            yield f"data: {json.dumps({**chunk, 'choices': [last]})}\n\n"
            yield f"data: {json.dumps({**chunk, 'choices': [], 'usage': USAGE})}\n\n"
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


@contextmanager
def scripted_upstream(script: Script) -> Iterator[ScriptedUpstream]:
    """Serves the scripted upstream on loopback; yields its ``/v1`` URL and the bodies."""
    bodies: list[dict[str, Any]] = []
    with serve_in_thread(_app(script, bodies)) as url:
        yield ScriptedUpstream(url + "/v1", bodies)


def agent_on(upstream: ScriptedUpstream, name: str, instructions: str) -> Tenant:
    """A tenant whose published agent ``asistente`` runs on ``upstream`` with the guardrails
    a new agent gets (every check on, in ``block`` mode)."""
    tenant = make_tenant(name=name, slug="asistente", instructions=instructions)
    allow_upstream(tenant.workspace_id, upstream.url)
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = ModelSettings(provider="openai", name="gpt-4o-mini", base_url=upstream.url)
        update_draft(session, agent, AgentPatch(model=model))
        publish(session, agent)
    return tenant


def tool_results(body: dict[str, Any]) -> list[str]:
    """The contents of the ``tool`` messages an upstream request carries."""
    return [str(m.get("content")) for m in body["messages"] if m.get("role") == "tool"]
