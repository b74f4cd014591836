"""Wire shapes of an agent's conversations (admin API)."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

from vigia.conversations.marks import Moderation
from vigia.kit.wire_types import Timestamp

Channel = Literal["openai", "console", "eval", "review"]
"""Where a conversation came from: the OpenAI-compatible API, the console's playground, an
evaluation run, or an external agent's thread (its reviews)."""
CHANNELS: tuple[Channel, ...] = get_args(Channel)
TEST_CHANNELS: tuple[Channel, ...] = ("console", "eval")
"""Test traffic: what the console's lists leave out unless asked."""


class FunctionCallOut(BaseModel):
    name: str
    arguments: str


class ToolCallOut(BaseModel):
    """A tool call of an assistant message, as OpenAI shapes it."""

    id: str
    type: Literal["function"] = "function"
    function: FunctionCallOut


class MessageOut(BaseModel):
    """A stored message; ``run_id`` names the run that wrote it (null for operator replies).

    An assistant message that asked for tools has ``tool_calls``; a ``tool`` message (a
    tool's result, or the notice that replaced a withheld one) names the call it answers.
    """

    model_config = ConfigDict(from_attributes=True)

    role: str
    content: str
    tool_calls: list[ToolCallOut] | None = None
    tool_call_id: str | None = None
    run_id: str | None
    flagged: bool = False
    """Never model input: input a guardrail blocked, and the refusal it got."""
    moderation: Moderation | None = None
    """``blocked`` or ``flagged`` input, or the ``refusal`` a blocked message got."""
    guardrails: list[str] | None = None
    """The input guardrails that fired on the turn, when any did."""
    author: str | None = None
    """Who wrote an operator reply (the console user's name), when known."""
    created_at: Timestamp


class AssigneeOut(BaseModel):
    """The console user holding a conversation ("Atiende" in the console)."""

    id: str
    name: str | None
    """Their user name (null only if the user can no longer be read)."""


class ConversationOut(BaseModel):
    """A conversation with every message, oldest first."""

    id: str
    agent_id: str
    external_id: str | None = None
    """An external agent's own id for the conversation (the ``threadId`` of its reviews)."""
    channel: str = "openai"
    """Where it came from (``CHANNELS``)."""
    handoff: bool
    assigned_to: AssigneeOut | None = None
    """Who took ("tomar") it in the console; null while nobody holds it."""
    assigned_at: Timestamp | None = None
    """When they took it; null while nobody holds it."""
    created_at: Timestamp
    messages: list[MessageOut]


class HandoffOut(BaseModel):
    """Whether a human holds the conversation (the agent does not answer it then)."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    handoff: bool


class OperatorReplyOut(BaseModel):
    """An operator's reply as stored."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    role: str
    content: str
    author: str | None = None
