"""Review threads: the conversation a review's ``threadId`` names.

A ``threadId`` is a conversation of the key's workspace (a channel key: of its own agent
only), or the external agent's own id for one of its conversations. An id the workspace
does not know starts a conversation of the reviewed agent stored under it as
``external_id``; the conversation gets an id of Vigia's own, so the two never collide.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.conversations import service as conversations
from vigia.conversations.models import Conversation
from vigia.errors import NotFound
from vigia.workspaces.auth import KeyContext

MAX_THREAD_ID = 64


@dataclass(frozen=True)
class Thread:
    """A resolved ``threadId``: a stored conversation, or an external id to open one under."""

    conversation_id: str | None
    external_id: str | None = None


def find_thread(session: Session, key: KeyContext, agent: Agent, thread_id: str) -> Thread:
    """What ``thread_id`` names for a review of ``agent``; over the limit, another
    workspace's conversation, or (channel key) another agent's is a 404."""
    if len(thread_id) > MAX_THREAD_ID:
        raise NotFound("conversation not found")
    row = session.get(Conversation, thread_id)
    if row is not None:
        if row.workspace_id != agent.workspace_id or (
            key.agent_id is not None and row.agent_id != key.agent_id
        ):
            raise NotFound("conversation not found")
        return Thread(row.id)
    known = conversations.external_conversation(session, agent.workspace_id, agent.id, thread_id)
    return Thread(known.id) if known is not None else Thread(None, thread_id)


def open_thread(session: Session, agent: Agent, thread: Thread) -> Conversation:
    """The thread's conversation inside the write transaction, created if it is new (a
    concurrent review that created it first wins; its conversation is used)."""
    if thread.conversation_id is not None:
        row = session.get(Conversation, thread.conversation_id)
        if row is None:
            raise NotFound("conversation not found")
        return row
    assert thread.external_id is not None
    return conversations.open_external_conversation(
        session, agent.workspace_id, agent.id, thread.external_id
    )
