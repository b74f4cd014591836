"""``GET /v1/models`` and ``POST /v1/chat/completions``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi.responses import JSONResponse, StreamingResponse
from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.agents.service import AgentRow, find_agent_row, list_agents, resolve
from vigia.db.session import session_scope
from vigia.engine.events import EngineEvent, TurnResult
from vigia.engine.pipeline import execute, prepare
from vigia.engine.turn import TurnRequest
from vigia.errors import NotFound
from vigia.llm.protocol import ChatMessage
from vigia.openai_api import wire
from vigia.openai_api.schemas import ChatCompletionRequest
from vigia.workspaces.auth import KeyContext, require_scope

router = APIRouter(prefix="/v1", tags=["openai"])
ChatKey = Annotated[KeyContext, Depends(require_scope("chat"))]


def _visible(agent: Agent, key: KeyContext) -> bool:
    if agent.kind != "internal":
        return False
    if key.agent_id is not None and agent.id != key.agent_id:
        return False
    return key.env == "draft" or agent.published_version is not None


def _agent_for(session: Session, key: KeyContext, slug: str) -> AgentRow:
    agent = find_agent_row(session, key.workspace_id, slug=slug)
    if agent is None or agent.kind != "internal" or (key.agent_id and agent.id != key.agent_id):
        raise NotFound(f"model '{slug}' not found")
    return agent


@router.get("/models")
def models(key: ChatKey) -> dict[str, Any]:
    """The agents this key can talk to."""
    with session_scope() as session:
        agents = [a for a in list_agents(session, key.workspace_id) if _visible(a, key)]
        data = [
            {
                "id": a.slug,
                "object": "model",
                "created": int(a.created_at.timestamp()),
                "owned_by": "vigia",
                "name": resolve(session, a, key.env).config.name or a.slug,
            }
            for a in agents
        ]
    return {"object": "list", "data": data}


def _turn_request(
    body: ChatCompletionRequest, key: KeyContext, agent_id: str, header_conversation: str | None
) -> TurnRequest:
    conversation_id = header_conversation or body.conversation_id
    dialogue = [m for m in body.messages if m.role in ("user", "assistant")]
    supplied = None
    if len(dialogue) > 1:
        supplied = [ChatMessage(m.role, m.text()) for m in dialogue[:-1]]
    return TurnRequest(
        workspace_id=key.workspace_id,
        agent_id=agent_id,
        message=body.messages[-1].text(),
        channel="openai",
        key_id=key.key_id,
        env=key.env,
        conversation_id=conversation_id,
        supplied_history=supplied,
        streamed=body.stream,
    )


@router.post("/chat/completions", response_model=None)
def chat_completions(
    body: ChatCompletionRequest,
    key: ChatKey,
    x_sherlock_conversation: Annotated[str | None, Header(max_length=64)] = None,
) -> JSONResponse | StreamingResponse:
    """Runs one agent turn; JSON, or SSE chunks with ``stream: true``."""
    prepared = prepare(
        _turn_request(body, key, "", x_sherlock_conversation),
        locate=lambda session: _agent_for(session, key, body.slug),
    )
    events = execute(prepared)
    if not body.stream:
        results = [event for event in events if isinstance(event, TurnResult)]
        return JSONResponse(wire.completion(body.slug, results[-1]))
    first = next(events)  # model errors surface as an HTTP status, before any byte is sent

    def replay() -> Iterator[EngineEvent]:
        yield first
        yield from events

    include_usage = bool(body.stream_options and body.stream_options.include_usage)
    return StreamingResponse(
        wire.chunks(body.slug, replay(), include_usage),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
