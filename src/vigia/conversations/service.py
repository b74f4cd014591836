"""Conversations of an agent: lookup within a workspace, memory, handoff, operator replies."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from vigia.conversations.marks import UNMARKED, InputMarks
from vigia.conversations.models import Conversation, Message
from vigia.conversations.schemas import AssigneeOut, ConversationOut, MessageOut
from vigia.db.base import table_of, utcnow
from vigia.db.rows import RowSink, insert_rows, sink_of
from vigia.errors import Conflict, Invalid, NotFound
from vigia.llm.protocol import ChatMessage, openai_tool_calls

MAX_MESSAGE_CHARS = 100_000
MEMORY_ROLES = ("user", "assistant", "operator")


def get_conversation(session: Session, workspace_id: str, conversation_id: str) -> Conversation:
    """A conversation of the workspace; another workspace's is simply not found."""
    if len(conversation_id) > 64:
        raise NotFound("conversation not found")
    row = session.get(Conversation, conversation_id)
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("conversation not found")
    return row


def reach_conversation(
    session: Session, workspace_id: str, conversation_id: str, agent_id: str | None = None
) -> Conversation:
    """A conversation of the workspace (of ``agent_id`` only, when given) named by its id or
    by an external agent's own id for it (when that names exactly one); else not found."""
    row = session.get(Conversation, conversation_id) if len(conversation_id) <= 64 else None
    if row is None and len(conversation_id) <= 64:
        query = select(Conversation).where(
            Conversation.workspace_id == workspace_id, Conversation.external_id == conversation_id
        )
        if agent_id is not None:
            query = query.where(Conversation.agent_id == agent_id)
        found = session.scalars(query.limit(2)).all()
        row = found[0] if len(found) == 1 else None
    if row is None or row.workspace_id != workspace_id:
        raise NotFound("conversation not found")
    if agent_id is not None and row.agent_id != agent_id:
        raise NotFound("conversation not found")
    return row


def external_conversation(
    session: Session, workspace_id: str, agent_id: str, external_id: str
) -> Conversation | None:
    """The agent's conversation that an external agent names ``external_id``, if any."""
    return session.scalars(
        select(Conversation).where(
            Conversation.workspace_id == workspace_id,
            Conversation.agent_id == agent_id,
            Conversation.external_id == external_id,
        )
    ).one_or_none()


def open_external_conversation(
    session: Session, workspace_id: str, agent_id: str, external_id: str
) -> Conversation:
    """The agent's conversation named ``external_id``, created if it is new (a concurrent
    writer that created it first wins; its conversation is returned)."""
    known = external_conversation(session, workspace_id, agent_id, external_id)
    if known is not None:
        return known
    try:
        with session.begin_nested():
            row = Conversation(
                workspace_id=workspace_id,
                agent_id=agent_id,
                external_id=external_id,
                channel="review",
            )
            session.add(row)
    except IntegrityError:
        winner = external_conversation(session, workspace_id, agent_id, external_id)
        if winner is None:  # pragma: no cover - the constraint fired, so the row exists
            raise
        return winner
    return row


def history(
    session: Session, conversation_id: str, turns: int, before: int | None = None
) -> list[ChatMessage]:
    """The last ``turns`` exchanges (user + reply) of the conversation, oldest first; with
    ``before``, of the messages stored before the message of that id.

    Tool results and assistant messages that only asked for tools are not memory: the
    reply that used them is.
    Flagged messages (input a guardrail blocked during a handoff) are never model input.
    """
    if turns <= 0:
        return []
    rows = session.scalars(
        select(Message)
        .where(
            Message.conversation_id == conversation_id,
            Message.role.in_(MEMORY_ROLES),
            Message.content != "",
            Message.flagged.is_(False),
            Message.id < before if before is not None else true(),
        )
        .order_by(Message.id.desc())
        .limit(turns * 2)
    ).all()
    return [ChatMessage(m.role, m.content) for m in reversed(rows)]


def stored_tool_ids(session: Session, conversation_id: str) -> tuple[set[str], set[str]]:
    """Ids of the calls the conversation's assistant messages made, and of those it holds a
    result for."""
    rows = session.execute(
        select(Message.tool_calls, Message.tool_call_id).where(
            Message.conversation_id == conversation_id,
            (Message.tool_calls.is_not(None)) | (Message.tool_call_id.is_not(None)),
        )
    ).all()
    calls = {str(c.get("id")) for row in rows for c in (row.tool_calls or [])}
    answered = {row.tool_call_id for row in rows if row.tool_call_id}
    return calls, answered


def messages(session: Session, conversation_id: str) -> list[Message]:
    return list(
        session.scalars(
            select(Message).where(Message.conversation_id == conversation_id).order_by(Message.id)
        )
    )


def add_message(
    session: Session, conversation: Conversation, role: str, content: str, run_id: str | None = None
) -> Message:
    """Appends a message; the caller's transaction decides whether it stays."""
    if len(content) > MAX_MESSAGE_CHARS:
        raise Invalid(f"message longer than {MAX_MESSAGE_CHARS} characters")
    message = Message(conversation_id=conversation.id, role=role, content=content, run_id=run_id)
    session.add(message)
    session.flush()
    return message


def add_operator_reply(
    session: Session,
    conversation: Conversation,
    content: str,
    author: str | None = None,
    *,
    by: str | None = None,
) -> Message:
    """Appends a person's reply, signed by ``author`` when given; a blank one is refused.

    ``by`` (a console user's id) must hold the conversation: one nobody holds is taken by
    them first, one another operator holds is refused (Conflict), nothing stored."""
    if not content.strip():
        raise Invalid("an operator reply cannot be blank")
    if by is not None:
        assign(session, conversation, by)
    message = add_message(session, conversation, "operator", content)
    message.author = author
    session.flush()
    return message


def set_handoff(session: Session, conversation: Conversation, on: bool) -> Conversation:
    """Hands the conversation to a human (on) or back to the agent (off: nobody holds it
    any more)."""
    conversation.handoff = on
    if not on:
        conversation.assigned_to = None
        conversation.assigned_at = None
    session.flush()
    return conversation


def assign(session: Session, conversation: Conversation, user_id: str) -> Conversation:
    """``user_id`` takes ("tomar") the conversation: it is in handoff and they hold it.
    One another operator holds is refused (Conflict) until it is released."""
    if conversation.assigned_to not in (None, user_id):
        raise Conflict("another operator holds this conversation")
    conversation.handoff = True
    if conversation.assigned_to is None:
        conversation.assigned_to = user_id
        conversation.assigned_at = utcnow()
    session.flush()
    return conversation


def hand_off(session: Session, conversation_id: str) -> None:
    """Hands the conversation to the team (a Core update: the turn's own transaction)."""
    session.execute(
        update(table_of(Conversation))
        .where(table_of(Conversation).c.id == conversation_id)
        .values(handoff=True, updated_at=utcnow())
    )


def conversation_view(
    session: Session, conversation: Conversation, holder_name: str | None = None
) -> ConversationOut:
    """The conversation with its messages, as the admin API and the CLI show it;
    ``holder_name`` names the user holding it (the users domain knows names)."""
    holder = conversation.assigned_to
    return ConversationOut(
        id=conversation.id,
        agent_id=conversation.agent_id,
        external_id=conversation.external_id,
        channel=conversation.channel,
        handoff=conversation.handoff,
        assigned_to=None if holder is None else AssigneeOut(id=holder, name=holder_name),
        assigned_at=conversation.assigned_at,
        created_at=conversation.created_at,
        messages=[MessageOut.model_validate(m) for m in messages(session, conversation.id)],
    )


def record_exchange(
    target: Session | RowSink,
    conversation_id: str,
    messages: list[ChatMessage],
    run_id: str,
    *,
    open_for: tuple[str, str] | None = None,
    channel: str = "openai",
    now: datetime | None = None,
    marks: InputMarks | None = None,
) -> None:
    """Appends the messages of one run, in order, tool calls and results included (Core
    inserts: every turn does this).

    ``open_for=(workspace_id, agent_id)`` first creates the conversation, from ``channel``.
    ``marks`` (what the input guardrails said) go on the contact's message and on the
    refusal a blocked one got: both kept for the operator, never model input.
    """
    now = now or utcnow()
    connection = sink_of(target)  # rows rendered once (vigia.db.rows): every turn
    if open_for is not None:
        workspace_id, agent_id = open_for
        insert_rows(
            connection,
            table_of(Conversation),
            [
                {
                    "id": conversation_id,
                    "workspace_id": workspace_id,
                    "agent_id": agent_id,
                    "channel": channel,
                    "handoff": False,
                    "created_at": now,
                    "updated_at": now,
                }
            ],
        )
    if messages:
        insert_rows(
            connection,
            table_of(Message),
            [
                {
                    "conversation_id": conversation_id,
                    "role": m.role,
                    "content": m.content,
                    "tool_calls": openai_tool_calls(m.tool_calls) or None,
                    "tool_call_id": m.tool_call_id,
                    "run_id": run_id,
                    "created_at": now,
                    **(marks.columns(m.role) if marks is not None else UNMARKED),
                }
                for m in messages
            ],
        )
