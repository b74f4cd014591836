"""Tables: users, their login sessions, and their roles per workspace.

The users and sessions tables keep the names the worlds surface gave them when it was the
only one with logins (``world_users``, ``world_sessions``): existing accounts carry over.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column


class User(Base):
    """A person who logs in (created with ``vigia user create`` or the console's users
    page); a disabled one cannot until enabled again."""

    __tablename__ = "world_users"

    id: Mapped[str] = id_column()
    name: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = created_column()
    disabled_at: Mapped[datetime | None] = mapped_column(default=None)


class UserSession(Base):
    """A login: the cookie holds the token, the table only its SHA-256."""

    __tablename__ = "world_sessions"
    __table_args__ = (Index("ix_world_sessions_user", "user_id"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("world_users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = created_column()
    expires_at: Mapped[datetime] = mapped_column()
    last_seen_at: Mapped[datetime | None] = mapped_column(default=None)


class WorkspaceRole(Base):
    """What a user may do in one workspace: owner, admin, operator or viewer."""

    __tablename__ = "workspace_roles"
    __table_args__ = (Index("ix_workspace_roles_workspace", "workspace_id"),)

    user_id: Mapped[str] = mapped_column(
        ForeignKey("world_users.id", ondelete="CASCADE"), primary_key=True
    )
    workspace_id: Mapped[str] = mapped_column(
        ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = created_column()
