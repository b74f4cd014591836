"""Conversaciones: the workspace's conversations, most recent message first, a page at a
time, filtered by agent, status and channel and searched by text or id. Test traffic (the
playground's and evaluation runs') is left out unless asked for; choosing its channel asks."""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import ConversationReader
from vigia.console.rendering import page
from vigia.conversations.listing import ConversationFilter, list_conversations
from vigia.conversations.schemas import CHANNELS, TEST_CHANNELS
from vigia.errors import Invalid, NotFound
from vigia.http.deps import Db

router = APIRouter(prefix="/console/w/{ws}", include_in_schema=False)
Status = Literal["all", "handoff", "agent"]
PAGE_SIZE = 50
MAX_PAGE = 10_000
MAX_SEARCH = 200


def _channels(channel: str, test: bool) -> tuple[str, ...] | None:
    """The channels shown: the one chosen, else every one (test traffic only with ``test``)."""
    if channel:
        if channel not in CHANNELS:
            raise Invalid(f"unknown channel '{channel}'")
        return (channel,)
    return None if test else tuple(c for c in CHANNELS if c not in TEST_CHANNELS)


def _link(base: str, kept: dict[str, str], number: int) -> str:
    """The listing's page ``number`` with the same filters."""
    params = kept | ({"page": str(number)} if number > 1 else {})
    return base + (f"?{urlencode(params)}" if params else "")


@router.get("/conversations")
def conversation_list(
    request: Request,
    access: ConversationReader,
    db: Db,
    agent: Annotated[str, Query(max_length=64)] = "",
    status: Status = "all",
    channel: Annotated[str, Query(max_length=16)] = "",
    q: Annotated[str, Query(max_length=MAX_SEARCH)] = "",
    test: bool = False,
    page_number: Annotated[int, Query(alias="page", ge=1, le=MAX_PAGE)] = 1,
) -> Response:
    slugs = agents.agent_slugs(db, access.workspace.id)
    agent_id = next((i for i, s in slugs.items() if s == agent), None)
    if agent and agent_id is None:
        raise NotFound(f"agent '{agent}' not found")
    where = ConversationFilter(
        agent_id=agent_id,
        handoff={"all": None, "handoff": True, "agent": False}[status],
        channels=_channels(channel, test),
        text=q,
    )
    listing = list_conversations(
        db, access.workspace.id, where, offset=(page_number - 1) * PAGE_SIZE, limit=PAGE_SIZE
    )
    kept = {"agent": agent, "status": "" if status == "all" else status, "channel": channel}
    kept |= {"q": q, "test": "true" if test else ""}
    kept = {name: value for name, value in kept.items() if value}
    base = f"{access.base}/conversations"
    return page(
        request,
        "conversations.html",
        access=access,
        section="conversations",
        rows=listing.rows,
        slugs=slugs,
        agent=agent,
        filter_status=status,
        channel=channel,
        q=q,
        test=test,
        page_number=page_number,
        previous_url=_link(base, kept, page_number - 1) if page_number > 1 else "",
        next_url=_link(base, kept, page_number + 1) if listing.has_more else "",
    )
