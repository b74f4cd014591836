"""``GET /v1/models``, ``GET /v1/models/{model}`` and ``POST /v1/chat/completions``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Header
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel
from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.agents.service import AgentRow, find_agent_row, get_agent, list_agents, resolve
from vigia.db.session import session_scope
from vigia.engine import EngineEvent, TurnRequest, TurnResult, execute, prepare
from vigia.errors import NotFound
from vigia.http.deps import WriteSlot
from vigia.http.sse import event_stream_response
from vigia.llm.protocol import ChatMessage, ToolCall, ToolSpec
from vigia.openai_api import wire
from vigia.openai_api.schemas import (
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionRequest,
    ChatMessageIn,
    ModelList,
    ModelOut,
    slug_of,
)
from vigia.workspaces.auth import KeyContext, require_scope

router = APIRouter(prefix="/v1", tags=["openai"])
chat_key = require_scope("chat")
"""Admits keys with the ``chat`` scope (the route's dependency, and the lane's)."""
ChatKey = Annotated[KeyContext, Depends(chat_key)]
CONVERSATION_HEADER_CHARS = 64


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


def _model_out(session: Session, agent: Agent, key: KeyContext) -> ModelOut:
    """The agent as a ``model``, named as the version the key runs names it."""
    return ModelOut(
        id=agent.slug,
        created=int(agent.created_at.timestamp()),
        name=resolve(session, agent, key.env).config.name or agent.slug,
    )


@router.get("/models")
def models(key: ChatKey) -> ModelList:
    """The agents this key can talk to."""
    with session_scope() as session:
        agents = [a for a in list_agents(session, key.workspace_id) if _visible(a, key)]
        return ModelList(data=[_model_out(session, a, key) for a in agents])


@router.get("/models/{model}")
def retrieve_model(model: str, key: ChatKey) -> ModelOut:
    """One agent this key can talk to (the SDKs' ``models.retrieve``); any other is a 404."""
    slug = slug_of(model)
    with session_scope() as session:
        try:
            agent: Agent | None = get_agent(session, key.workspace_id, slug)
        except NotFound:
            agent = None
        if agent is None or not _visible(agent, key):
            raise NotFound(f"model '{slug}' not found")
        return _model_out(session, agent, key)


def _message(m: ChatMessageIn) -> ChatMessage:
    calls = tuple(ToolCall(c.id, c.function.name, c.function.arguments) for c in m.tool_calls or [])
    return ChatMessage(m.role, m.text(), calls, m.tool_call_id)


def _turn_request(
    body: ChatCompletionRequest, key: KeyContext, agent_id: str, header_conversation: str | None
) -> TurnRequest:
    """The turn: the last user message, the history before it, the tool calls and results
    after it (the schema checked their order). Several messages before it are the history
    to use; none means the stored one."""
    conversation_id = header_conversation or body.conversation_id
    dialogue = [m for m in body.messages if m.role in ("user", "assistant", "tool")]
    anchor = max(i for i, m in enumerate(dialogue) if m.role == "user")
    earlier = [m for m in dialogue[:anchor] if m.role != "tool" and m.text()]
    tools = [
        ToolSpec(
            t.function.name, t.function.description, t.function.parameters or {}, t.function.strict
        )
        for t in body.tools or []
    ]
    choice = body.tool_choice
    return TurnRequest(
        workspace_id=key.workspace_id,
        agent_id=agent_id,
        message=dialogue[anchor].text(),
        channel="openai",
        key_id=key.key_id,
        env=key.env,
        conversation_id=conversation_id,
        supplied_history=[ChatMessage(m.role, m.text()) for m in earlier] if anchor else None,
        streamed=body.stream,
        continuation=[_message(m) for m in dialogue[anchor + 1 :]],
        tools=tools,
        tool_choice=choice.model_dump() if isinstance(choice, BaseModel) else choice,
        parallel_tool_calls=body.parallel_tool_calls,
        response_format=(
            body.response_format.model_dump(by_alias=True, exclude_none=True)
            if body.response_format
            else None
        ),
    )


STREAM_DESCRIPTION = (
    "With `stream: true`: `chat.completion.chunk` events, then `data: [DONE]`. "
    "Without it: one `chat.completion` (application/json)."
)


def complete(
    body: ChatCompletionRequest, key: KeyContext, header_conversation: str | None
) -> JSONResponse | StreamingResponse:
    """Runs one agent turn for ``key``; JSON, or SSE chunks with ``stream: true``. Called
    inside the request's write slot, by the route and by ``vigia.openai_api.lane``."""
    prepared = prepare(
        _turn_request(body, key, "", header_conversation),
        locate=lambda session: _agent_for(session, key, body.slug),
    )
    events = execute(prepared)
    if not body.stream:
        results = [event for event in events if isinstance(event, TurnResult)]
        completion = wire.completion(body.slug, results[-1])
        # Built and checked as ChatCompletion; answered directly, so the hot path does not
        # pay FastAPI's second validation of the response model.
        return JSONResponse(completion.model_dump(mode="json"))
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


@router.post(
    "/chat/completions",
    response_model=ChatCompletion,
    responses={200: event_stream_response(ChatCompletionChunk, STREAM_DESCRIPTION)},
)
def chat_completions(
    body: ChatCompletionRequest,
    slot: WriteSlot,
    key: ChatKey,
    x_sherlock_conversation: Annotated[
        str | None, Header(max_length=CONVERSATION_HEADER_CHARS)
    ] = None,
) -> JSONResponse | StreamingResponse:
    """Runs one agent turn; JSON, or SSE chunks with ``stream: true``.

    A valid JSON request is served by ``vigia.openai_api.lane`` before routing; this route
    declares the operation and answers every request the lane passes on (another content
    type, a body or header that does not validate) exactly as FastAPI validates it."""
    return complete(body, key, x_sherlock_conversation)
