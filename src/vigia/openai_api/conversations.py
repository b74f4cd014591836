"""``GET /v1/conversations/{id}/messages``: what an API channel shows its customer.

An API channel reads what an operator wrote during a handoff from here. The key reaches the
conversations chat reaches (its workspace's; a channel key: its own agent's), of internal
and external agents alike, named by Vigia's id or by the external agent's own thread id;
anything else is a 404.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict

from vigia.conversations import service as conversations
from vigia.db.session import session_scope
from vigia.kit.wire_types import Timestamp
from vigia.workspaces.auth import KeyContext, require_scope

router = APIRouter(prefix="/v1", tags=["openai"])
ReaderKey = Annotated[KeyContext, Depends(require_scope("chat", "guardrails:review"))]
CUSTOMER_ROLES = ("user", "assistant", "operator")


class CustomerMessage(BaseModel):
    """A message as the customer's channel may show it."""

    model_config = ConfigDict(from_attributes=True)

    role: Literal["user", "assistant", "operator"]
    content: str
    author: str | None = None
    """The name of the person who wrote an operator message, when known."""
    created_at: Timestamp


class CustomerConversation(BaseModel):
    """The conversation's messages, oldest first, and whether a person holds it."""

    id: str
    handoff: bool
    messages: list[CustomerMessage]


@router.get("/conversations/{conversation_id}/messages")
def conversation_messages(conversation_id: str, key: ReaderKey) -> CustomerConversation:
    """The user, assistant and operator messages of a conversation the key may reach, a
    blocked message and the refusal it got included (tool calls, tool results and reviews
    are not shown)."""
    with session_scope() as session:
        row = conversations.reach_conversation(
            session, key.workspace_id, conversation_id, key.agent_id
        )
        shown = [
            CustomerMessage.model_validate(m)
            for m in conversations.messages(session, row.id)
            if m.role in CUSTOMER_ROLES and m.content
        ]
        return CustomerConversation(id=row.id, handoff=row.handoff, messages=shown)
