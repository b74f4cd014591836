"""Table: evaluation cases, each an input (or short conversation) and assertions on the reply."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column, utcnow


class EvalCase(Base):
    """One case of an agent; ``assertions`` holds a ``CaseAssertions`` as JSON."""

    __tablename__ = "eval_cases"
    __table_args__ = (Index("ix_eval_cases_agent", "agent_id", "created_at"),)

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(120), default="")
    input: Mapped[str] = mapped_column(Text)
    history: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
    assertions: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
