"""A conversation's transcript with each turn's run trace (the list: ``conversation_list``) and
Bandeja, the operator inbox: conversations a person holds, newest first, answered and
released from there. The inbox list refreshes itself (htmx); the open transcript gets only
its new messages appended (console.js), so the scroll position and open traces stay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Form as Field
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import Access, ConversationReader, Operator
from vigia.console.rendering import page
from vigia.console.responses import see_other
from vigia.conversations import service as conversations
from vigia.conversations.listing import (
    ConversationFilter,
    ConversationSummary,
    list_conversations,
)
from vigia.conversations.models import Conversation
from vigia.db.base import utcnow
from vigia.engine import RunOut, run_view
from vigia.errors import Conflict
from vigia.http.deps import Db
from vigia.users import service as users

router = APIRouter(prefix="/console/w/{ws}", include_in_schema=False)


def _slugs(db: Session, access: Access) -> dict[str, str]:
    return agents.agent_slugs(db, access.workspace.id)


def _runs(db: Session, access: Access, conversation: Conversation) -> dict[str, RunOut]:
    ids = {m.run_id for m in conversations.messages(db, conversation.id) if m.run_id}
    return {run_id: run_view(db, run_id, access.workspace.id) for run_id in ids}


def _transcript(db: Session, access: Access, conversation_id: str) -> dict[str, Any]:
    conversation = conversations.get_conversation(db, access.workspace.id, conversation_id)
    return {
        "conversation": conversation,
        "messages": conversations.messages(db, conversation.id),
        "runs": _runs(db, access, conversation),
        "slug": _slugs(db, access).get(conversation.agent_id, ""),
        "holder": _holders(db, {conversation.assigned_to}).get(conversation.assigned_to or "", ""),
    }


def _holders(db: Session, user_ids: set[str | None]) -> dict[str, str]:
    """The names of the operators holding conversations, by user id."""
    return users.names_of(db, {u for u in user_ids if u is not None})


@router.get("/conversations/{conversation_id}")
def conversation_page(
    request: Request, conversation_id: str, access: ConversationReader, db: Db, released: str = ""
) -> Response:
    return page(
        request,
        "conversation.html",
        access=access,
        section="conversations",
        back="conversations",
        released=bool(released),
        **_transcript(db, access, conversation_id),
    )


@router.get("/conversations/{conversation_id}/messages")
def transcript_fragment(
    request: Request, conversation_id: str, access: ConversationReader, db: Db
) -> Response:
    """The transcript alone (the inbox refreshes it)."""
    return page(
        request,
        "transcript_fragment.html",
        access=access,
        **_transcript(db, access, conversation_id),
    )


def _back(access: Access, conversation_id: str, back: str) -> str:
    if back == "inbox":
        return f"{access.base}/inbox?c={conversation_id}"
    return f"{access.base}/conversations/{conversation_id}"


@router.post("/conversations/{conversation_id}/handoff")
def take_over(conversation_id: str, access: Operator, db: Db) -> Response:
    """The operator takes ("tomar") the conversation: the agent stops answering it and they
    hold it; one another operator holds is refused (409) until it is released."""
    row = conversations.get_conversation(db, access.workspace.id, conversation_id)
    conversations.assign(db, row, access.user.id)
    return see_other(_back(access, conversation_id, "inbox"))


@router.post("/conversations/{conversation_id}/release")
def release(
    conversation_id: str,
    access: Operator,
    db: Db,
    back: Annotated[str, Field(max_length=20)] = "conversation",
) -> Response:
    """The agent answers the conversation again and nobody holds it; the next page says so."""
    row = conversations.get_conversation(db, access.workspace.id, conversation_id)
    conversations.set_handoff(db, row, False)
    if back == "inbox":
        return see_other(f"{access.base}/inbox?released={conversation_id}")
    return see_other(f"{access.base}/conversations/{conversation_id}?released=1")


@router.post("/conversations/{conversation_id}/reply")
def reply(
    request: Request,
    conversation_id: str,
    access: Operator,
    db: Db,
    content: Annotated[str, Field(max_length=20_000)] = "",
    back: Annotated[str, Field(max_length=20)] = "inbox",
) -> Response:
    """An operator's reply, signed with their name and stored in the conversation (the
    client reads it from there); a blank one is refused next to the field, nothing stored.
    A conversation nobody holds is taken by the replier; one another operator holds is
    refused (409) next to the field, nothing stored."""
    row = conversations.get_conversation(db, access.workspace.id, conversation_id)
    if not content.strip():
        return _inbox_page(request, access, db, conversation_id, reply_error="blank_reply")
    try:
        conversations.add_operator_reply(
            db, row, content, author=access.user.name, by=access.user.id
        )
    except Conflict:
        return _inbox_page(request, access, db, conversation_id, reply_error="held_by_other")
    return see_other(_back(access, conversation_id, back))


def _inbox_rows(db: Session, access: Access) -> list[ConversationSummary]:
    return list_conversations(db, access.workspace.id, ConversationFilter(handoff=True)).rows


def _list_context(db: Session, access: Access) -> dict[str, Any]:
    """What the inbox list shows: its rows, agent slugs, holders' names and the clock."""
    rows = _inbox_rows(db, access)
    return {
        "rows": rows,
        "slugs": _slugs(db, access),
        "holders": _holders(db, {row.conversation.assigned_to for row in rows}),
        "now": utcnow(),
    }


_REPLY_STATUS = {"": 200, "blank_reply": 422, "held_by_other": 409}


def _inbox_page(
    request: Request,
    access: Access,
    db: Session,
    c: str,
    *,
    reply_error: str = "",
    released: str = "",
) -> Response:
    """The inbox, ``c`` open beside the list; ``reply_error`` (a catalogue key under
    ``inbox.``) says why a reply was refused, next to the field."""
    opened = _transcript(db, access, c) if c else None
    return page(
        request,
        "inbox.html",
        status=_REPLY_STATUS[reply_error],
        access=access,
        section="inbox",
        opened=opened,
        current=c,
        reply_error=reply_error,
        released=released[:8],
        **_list_context(db, access),
    )


@router.get("/inbox")
def inbox(
    request: Request, access: ConversationReader, db: Db, c: str = "", released: str = ""
) -> Response:
    """Conversations in handoff, newest first; ``c`` opens one of them beside the list;
    ``released`` names one just given back to the agent."""
    return _inbox_page(request, access, db, c, released=released)


@router.get("/inbox/items")
def inbox_items(request: Request, access: ConversationReader, db: Db, c: str = "") -> Response:
    """The inbox list alone (polled every few seconds)."""
    return page(
        request,
        "inbox_items.html",
        access=access,
        current=c,
        **_list_context(db, access),
    )
