"""Tables: agents, each with a draft config and numbered published versions."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column, utcnow


class Agent(Base):
    __tablename__ = "agents"
    __table_args__ = (UniqueConstraint("workspace_id", "slug", name="uq_agents_workspace_slug"),)

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    slug: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16), default="internal")
    draft: Mapped[dict[str, Any]] = mapped_column(default=dict)
    published_version: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    """When the agent was deleted: it is gone from every lookup, its rows stay (docs/console.md)."""


class AgentVersion(Base):
    __tablename__ = "agent_versions"
    __table_args__ = (UniqueConstraint("agent_id", "number", name="uq_agent_versions_number"),)

    id: Mapped[str] = id_column()
    agent_id: Mapped[str] = mapped_column(ForeignKey("agents.id", ondelete="CASCADE"))
    number: Mapped[int]
    config: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = created_column()
    knowledge_at: Mapped[datetime | None] = mapped_column(default=None)
    """The moment whose knowledge the version reads (``created_at`` when None; a rollback
    copies the moment of the version it restores)."""
    published_by: Mapped[str | None] = mapped_column(String(64), default=None)
    """Who published it: a console user's name, ``cli`` or ``admin-api`` (None before 0024)."""
