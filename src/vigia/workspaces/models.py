"""Tables: workspaces, their API keys and their secrets."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column


class Workspace(Base):
    __tablename__ = "workspaces"

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(64), unique=True)
    budget_usd: Mapped[float | None] = mapped_column(default=None)
    budget_action: Mapped[str] = mapped_column(String(16), default="pause")
    decide_quota_tokens: Mapped[int] = mapped_column(default=1_000_000)
    tool_hosts: Mapped[list[str]] = mapped_column(default=list)
    """Hosts (names, ``*.`` suffixes, addresses or networks) agent tools may call."""
    created_at: Mapped[datetime] = created_column()


class ApiKey(Base):
    __tablename__ = "api_keys"
    __table_args__ = (Index("ix_api_keys_workspace", "workspace_id"),)

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    agent_id: Mapped[str | None] = mapped_column(
        ForeignKey("agents.id", ondelete="CASCADE"), default=None
    )
    name: Mapped[str] = mapped_column(String(64), default="")
    env: Mapped[str] = mapped_column(String(16), default="production")
    scopes: Mapped[list[str]] = mapped_column(default=list)
    rpm: Mapped[int] = mapped_column(default=60)
    hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = created_column()
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)


class WorkspaceSecret(Base):
    """A named secret (an upstream key), AES-GCM encrypted under the server's secret key."""

    __tablename__ = "workspace_secrets"
    __table_args__ = (UniqueConstraint("workspace_id", "name"),)

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    sealed: Mapped[bytes] = mapped_column(LargeBinary)
    """Nonce (12 bytes) then ciphertext and tag; the workspace id and name are bound to it."""
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = created_column()
