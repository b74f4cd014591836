"""Table: output reviews, one per (agent, turnKey, attempt)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column


class OutputReview(Base):
    """A stored review; the unique turn makes retries of the same call return it again."""

    __tablename__ = "output_reviews"
    __table_args__ = (
        UniqueConstraint("agent_id", "turn_key", "attempt", name="uq_output_reviews_turn"),
        Index("ix_output_reviews_conversation", "conversation_id"),
        Index("ix_output_reviews_created", "created_at"),
    )

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.id", ondelete="CASCADE"))
    turn_key: Mapped[str] = mapped_column(String(128))
    attempt: Mapped[int]
    conversation_id: Mapped[str | None] = mapped_column(String(36), default=None)
    verdict: Mapped[str] = mapped_column(String(16))
    action: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = created_column()
