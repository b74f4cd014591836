"""The history stage: the memory turns the model sees (sent by the client, or stored)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from vigia.conversations import exchanges
from vigia.conversations import service as conversations
from vigia.engine.turn import Turn
from vigia.llm.protocol import ChatMessage


@dataclass(frozen=True)
class History:
    messages: list[ChatMessage]
    source: str
    """``request`` (the client resent it), ``stored`` (the conversation's) or ``none``."""

    outcome = "ok"

    def detail(self) -> dict[str, Any]:
        if self.source == "none":
            return {}
        return {"source": self.source, "messages": len(self.messages)}


def _resumed_at(session: Session, turn: Turn) -> int | None:
    """The stored user message that opened the tool exchange the client continues (its
    request's user message is that one again), or None."""
    continuation = turn.request.continuation
    if not continuation or not continuation[0].tool_calls:
        return None
    call_id = continuation[0].tool_calls[0].id
    return exchanges.opening_message(session, turn.conversation_id, call_id)


def load_history(session: Session, turn: Turn) -> History:
    """The last ``memory_turns`` exchanges: the client's history wins over the stored one.

    The stored one ends before the exchange a client continues with its tool results, so
    each message reaches the model once.
    """
    limit = turn.config.memory_turns * 2
    supplied = turn.request.supplied_history
    if supplied is not None:
        return History(supplied[-limit:] if limit else [], "request")
    if not turn.new_conversation:
        before = _resumed_at(session, turn)
        stored = conversations.history(
            session, turn.conversation_id, turn.config.memory_turns, before=before
        )
        return History(stored, "stored")
    return History([], "none")
