"""Tables: conversations of an agent and their messages."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column, utcnow


class Conversation(Base):
    __tablename__ = "conversations"
    __table_args__ = (
        Index("ix_conversations_workspace", "workspace_id"),
        Index("ix_conversations_created", "created_at"),
        Index("ix_conversations_workspace_channel", "workspace_id", "channel"),
        UniqueConstraint(
            "workspace_id", "agent_id", "external_id", name="uq_conversations_external"
        ),
    )

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.id", ondelete="CASCADE"))
    handoff: Mapped[bool] = mapped_column(default=False)
    external_id: Mapped[str | None] = mapped_column(String(64), default=None)
    """An external agent's own id for the conversation (its review ``threadId``)."""
    channel: Mapped[str] = mapped_column(String(16), default="openai")
    """Where it came from: ``openai`` (the API), ``console`` (the playground), ``eval``
    (an evaluation run) or ``review`` (an external agent's thread)."""
    assigned_to: Mapped[str | None] = mapped_column(
        ForeignKey("world_users.id", ondelete="SET NULL"), default=None
    )
    """The console user who took ("tomar") the conversation in handoff; null while nobody
    holds it."""
    assigned_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Message(Base):
    __tablename__ = "messages"
    __table_args__ = (Index("ix_messages_conversation", "conversation_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    conversation_id: Mapped[str] = mapped_column(ForeignKey("conversations.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    tool_calls: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, default=None)
    """An assistant message's tool calls, as OpenAI writes them:
    ``[{"id", "type": "function", "function": {"name", "arguments"}}]``."""
    tool_call_id: Mapped[str | None] = mapped_column(String(64), default=None)
    """The call a ``tool`` message answers."""
    run_id: Mapped[str | None] = mapped_column(String(36), default=None)
    flagged: Mapped[bool] = mapped_column(default=False, server_default=false())
    """Never model input: a contact's message a guardrail blocked, and the refusal it got."""
    moderation: Mapped[str | None] = mapped_column(String(16), default=None)
    """What the input guardrails said: ``blocked``, ``flagged`` (fired, not blocking) or,
    on the reply a blocked message got, ``refusal``; null when none fired."""
    guardrails: Mapped[list[str] | None] = mapped_column(JSON, default=None)
    """The names of the input guardrails that fired on the turn, in order."""
    author: Mapped[str | None] = mapped_column(String(64), default=None)
    """Who wrote an operator's reply (the console user's name); null when nobody said."""
    created_at: Mapped[datetime] = created_column()
