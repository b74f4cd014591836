"""Where a stored tool exchange begins: the user message of the turn that made a call."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.conversations.models import Message


def opening_message(session: Session, conversation_id: str, call_id: str) -> int | None:
    """The id of the user message that opened the turn in which the conversation's
    assistant made the call ``call_id`` (that assistant message's id when no user message
    precedes it); None when the conversation holds no such call."""
    rows = session.execute(
        select(Message.id, Message.tool_calls)
        .where(Message.conversation_id == conversation_id, Message.tool_calls.is_not(None))
        .order_by(Message.id)
    ).all()
    made = next(
        (row.id for row in rows if any(str(c.get("id")) == call_id for c in row.tool_calls or [])),
        None,
    )
    if made is None:
        return None
    opening = session.scalar(
        select(func.max(Message.id)).where(
            Message.conversation_id == conversation_id,
            Message.role == "user",
            Message.id < made,
        )
    )
    return int(opening) if opening is not None else made
