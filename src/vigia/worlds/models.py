"""Tables of the worlds surface: worlds, the code graph, conversations, personal files.

Its users and their sessions are the ``users`` domain's (``world_users``, ``world_sessions``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, utcnow


class World(Base):
    """A registered folder of documents (usually a legacy code base), owned by a workspace.

    Only users with a role in ``workspace_id`` reach it; a world without one (registered
    unassigned, or its workspace deleted) is reached by nobody (docs/worlds.md).
    """

    __tablename__ = "worlds"
    __table_args__ = (Index("ix_worlds_workspace", "workspace_id"),)

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    path: Mapped[str] = mapped_column(Text)
    workspace_id: Mapped[str | None] = mapped_column(
        ForeignKey("workspaces.id", ondelete="SET NULL"), default=None
    )
    files: Mapped[int] = mapped_column(default=0)
    lines: Mapped[int] = mapped_column(default=0)
    indexed_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = created_column()


class WorldFile(Base):
    """One indexed file of a world, with what re-indexing needs to skip it."""

    __tablename__ = "world_files"
    __table_args__ = (UniqueConstraint("world_id", "path", name="uq_world_files_path"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    world_id: Mapped[str] = mapped_column(ForeignKey("worlds.id", ondelete="CASCADE"))
    path: Mapped[str] = mapped_column(String(1024))
    kind: Mapped[str] = mapped_column(String(16))
    sha256: Mapped[str] = mapped_column(String(64))
    mtime: Mapped[float] = mapped_column(Float)
    size: Mapped[int] = mapped_column(Integer)
    lines: Mapped[int] = mapped_column(Integer)
    copies: Mapped[list[str]] = mapped_column(JSON, default=list)


class WorldChunk(Base):
    """A passage of a file (a paragraph, a JCL step, a map, a Markdown section…) as searched:
    its id is the key of its entry in the world's ``vigia.search`` collection.

    ``text`` is the raw lines (fixed-format COBOL keeps its sequence and indicator areas:
    ``fixed`` says so, quoting drops them); ``entity_key`` is the graph entity the passage
    belongs to (``PARA:PGM:NAME``, ``STEP:JOB:NAME``, ``MAP:NAME``…) and ``title`` its label.
    """

    __tablename__ = "world_chunks"
    __table_args__ = (
        Index("ix_world_chunks_file", "file_id"),
        Index("ix_world_chunks_world_path", "world_id", "path"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    world_id: Mapped[str] = mapped_column(String(64))
    file_id: Mapped[int] = mapped_column(ForeignKey("world_files.id", ondelete="CASCADE"))
    path: Mapped[str] = mapped_column(String(1024))
    line_start: Mapped[int] = mapped_column(Integer)
    line_end: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16), default="text")
    entity_key: Mapped[str | None] = mapped_column(String(300), default=None)
    title: Mapped[str] = mapped_column(String(300), default="")
    fixed: Mapped[bool] = mapped_column(default=False)


class WorldEntity(Base):
    """A node of the code graph: program, paragraph, data item, copybook, JCL step…"""

    __tablename__ = "world_entities"
    __table_args__ = (
        Index("ix_world_entities_name", "world_id", "name"),
        Index("ix_world_entities_key", "world_id", "key"),
        Index("ix_world_entities_file", "file_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    world_id: Mapped[str] = mapped_column(String(64))
    file_id: Mapped[int] = mapped_column(ForeignKey("world_files.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(128))
    key: Mapped[str] = mapped_column(String(300))
    program: Mapped[str | None] = mapped_column(String(64), default=None)
    path: Mapped[str] = mapped_column(String(1024))
    line_start: Mapped[int] = mapped_column(Integer)
    line_end: Mapped[int] = mapped_column(Integer)
    level: Mapped[int | None] = mapped_column(Integer, default=None)
    origin: Mapped[str | None] = mapped_column(String(64), default=None)
    detail: Mapped[str | None] = mapped_column(Text, default=None)


class WorldEdge(Base):
    """An edge of the code graph between entity keys, with the line that proves it."""

    __tablename__ = "world_edges"
    __table_args__ = (
        Index("ix_world_edges_dst", "world_id", "dst_key", "kind"),
        Index("ix_world_edges_src", "world_id", "src_key", "kind"),
        Index("ix_world_edges_file", "file_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    world_id: Mapped[str] = mapped_column(String(64))
    file_id: Mapped[int] = mapped_column(ForeignKey("world_files.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    src_key: Mapped[str] = mapped_column(String(300))
    dst_key: Mapped[str] = mapped_column(String(300))
    path: Mapped[str] = mapped_column(String(1024))
    line: Mapped[int] = mapped_column(Integer)
    detail: Mapped[str | None] = mapped_column(Text, default=None)


class WorldConversation(Base):
    """A chat over a world; a received share is a wrapper row pointing at the original.

    Ids are never reused (AUTOINCREMENT on SQLite, a sequence on PostgreSQL): a deleted
    conversation's id must not reach anyone else's new one.
    """

    __tablename__ = "world_conversations"
    __table_args__ = (
        Index("ix_world_conversations_owner", "owner_id"),
        UniqueConstraint("owner_id", "source_id", name="uq_world_conversations_share"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    owner_id: Mapped[str] = mapped_column(ForeignKey("world_users.id", ondelete="CASCADE"))
    world_id: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(120))
    pinned: Mapped[bool] = mapped_column(default=False)
    origin: Mapped[str] = mapped_column(String(16), default="own")
    source_id: Mapped[int | None] = mapped_column(
        ForeignKey("world_conversations.id", ondelete="CASCADE"), default=None
    )
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class WorldMessage(Base):
    """One turn of a world conversation; assistant turns keep their answer envelope."""

    __tablename__ = "world_messages"
    __table_args__ = (Index("ix_world_messages_conversation", "conversation_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    conversation_id: Mapped[int] = mapped_column(
        ForeignKey("world_conversations.id", ondelete="CASCADE")
    )
    role: Mapped[str] = mapped_column(String(16))
    content: Mapped[str] = mapped_column(Text)
    envelope: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = created_column()


class PersonalFile(Base):
    """A file a user uploaded for themselves; content lives under the data dir, never indexed."""

    __tablename__ = "world_personal_files"
    __table_args__ = (UniqueConstraint("user_id", "rel_path", name="uq_world_personal_path"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("world_users.id", ondelete="CASCADE"))
    rel_path: Mapped[str] = mapped_column(String(255))
    size: Mapped[int] = mapped_column(Integer)
    sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = created_column()
