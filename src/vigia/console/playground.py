"""The playground of an agent page: one turn through the engine, streamed as server-sent
events (``delta`` texts, then ``done`` with status, citations and fired guardrails).

Posted (with the CSRF header) rather than opened with ``EventSource``, which can only GET:
a turn writes a conversation and a run, so it must not be reachable by a cross-site link.
Turns run on channel ``console``, inside write admission, and count in usage and budget
like any other.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from fastapi import Form as Field
from fastapi.responses import StreamingResponse
from sqlalchemy.orm import Session

from vigia.agents.service import AgentRow, find_agent_row
from vigia.console.access import Configurer
from vigia.engine import (
    ClientToolCalls,
    EngineEvent,
    TextDelta,
    TurnRequest,
    TurnResult,
    execute,
    prepare,
)
from vigia.errors import NotFound, VigiaError
from vigia.http.deps import Db, WriteSlot
from vigia.http.sse import sse_line

router = APIRouter(prefix="/console/w/{ws}/agents", include_in_schema=False)
MAX_MESSAGE = 20_000


def _event(event: TextDelta | TurnResult) -> dict[str, Any]:
    if isinstance(event, TextDelta):
        return {"type": "delta", "text": event.text}
    return {
        "type": "done",
        "status": event.status,
        "conversation_id": event.conversation_id,
        "run_id": event.run_id,
        "version": event.version,
        "env": event.env,
        "citations": [c.as_dict() for c in event.citations],
        "guardrails": event.triggered,
        "tokens": event.prompt_tokens + event.completion_tokens,
        "cost_usd": event.cost_usd,
    }


def _stream(events: Iterator[EngineEvent]) -> Iterator[str]:
    try:
        for event in events:
            if isinstance(event, ClientToolCalls):
                continue  # the playground declares no client tools: never asked for
            yield sse_line(_event(event))
    except VigiaError as error:
        yield sse_line({"type": "error", "detail": error.detail})


@router.post("/{slug}/chat")
def chat(
    slot: WriteSlot,
    slug: str,
    access: Configurer,
    db: Db,
    message: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE)],
    env: Annotated[Literal["draft", "production"], Field()] = "draft",
    conversation_id: Annotated[str, Field(max_length=64)] = "",
) -> StreamingResponse:
    """A turn with the draft or the published version; errors found before the answer
    starts (unpublished agent, unknown conversation) are HTTP errors."""
    workspace_id = access.workspace.id
    db.commit()  # the engine works in its own transactions: hold no lock meanwhile

    def locate(session: Session) -> AgentRow | None:
        agent = find_agent_row(session, workspace_id, slug=slug)
        if agent is None or agent.kind != "internal":
            raise NotFound(f"agent '{slug}' not found")
        return agent

    turn = prepare(
        TurnRequest(
            workspace_id=workspace_id,
            agent_id="",
            message=message,
            channel="console",
            env=env,
            conversation_id=conversation_id or None,
            streamed=True,
        ),
        locate=locate,
    )
    events = execute(turn)
    first = next(events)  # a model failure before the first sentence is an HTTP error
    return StreamingResponse(
        _stream(chain([first], events)),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
