"""Tables: knowledge bases of a workspace, their documents, the documents' revisions (what
each published agent version sees, docs/knowledge.md "Versions"), the chunks, and the uploads
waiting for the background ingest worker (docs/knowledge.md "Background indexing")."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column, utcnow


class KnowledgeBase(Base):
    __tablename__ = "knowledge_bases"
    __table_args__ = (
        UniqueConstraint("workspace_id", "name", name="uq_knowledge_bases_workspace_name"),
    )

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(120))
    description: Mapped[str] = mapped_column(String(2000), default="")
    embedder: Mapped[str] = mapped_column(String(16), default="use")
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class KnowledgeDocument(Base):
    __tablename__ = "knowledge_documents"
    __table_args__ = (
        UniqueConstraint("knowledge_base_id", "name", name="uq_knowledge_documents_kb_name"),
    )

    id: Mapped[str] = id_column()
    knowledge_base_id: Mapped[str] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE")
    )
    name: Mapped[str] = mapped_column(String(255))
    media_type: Mapped[str] = mapped_column(String(100))
    url: Mapped[str | None] = mapped_column(String(2000), default=None)
    size_bytes: Mapped[int] = mapped_column(default=0)
    sha256: Mapped[str] = mapped_column(String(64))
    pages: Mapped[int | None] = mapped_column(default=None)
    chunk_count: Mapped[int] = mapped_column(default=0)
    # ``ready``, ``indexing`` (an upload waits for or is in the ingest worker) or ``failed``
    # (its last background upload failed: ``error_code``, ``error``); progress in chunks.
    status: Mapped[str] = mapped_column(String(16), default="ready", server_default="ready")
    progress_done: Mapped[int] = mapped_column(default=0, server_default="0")
    progress_total: Mapped[int] = mapped_column(default=0, server_default="0")
    error_code: Mapped[str | None] = mapped_column(String(40), default=None)
    error: Mapped[str | None] = mapped_column(String(500), default=None)
    created_at: Mapped[datetime] = created_column()
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class KnowledgeUpload(Base):
    """An upload the ingest worker has not finished: its bytes, kept until the document is
    indexed or fails. ``claim`` names the worker run that holds it, ``claimed_at`` is that
    run's last sign of life (a claim older than the stale time is taken over)."""

    __tablename__ = "knowledge_uploads"

    id: Mapped[str] = id_column()
    document_id: Mapped[str] = mapped_column(
        ForeignKey("knowledge_documents.id", ondelete="CASCADE"), unique=True
    )
    media_type: Mapped[str | None] = mapped_column(String(100), default=None)
    url: Mapped[str | None] = mapped_column(String(2000), default=None)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    queued_at: Mapped[datetime] = created_column()
    claim: Mapped[str | None] = mapped_column(String(36), default=None)
    claimed_at: Mapped[datetime | None] = mapped_column(default=None)


class KnowledgeRevision(Base):
    """One upload of a document: live from ``added_at`` until ``removed_at`` (replaced or
    removed). Its chunks are the search collection ``collection``; a version published at
    time T reads the revisions live at T, the draft those not removed."""

    __tablename__ = "knowledge_revisions"
    __table_args__ = (Index("ix_knowledge_revisions_kb", "knowledge_base_id", "removed_at"),)

    id: Mapped[str] = id_column()
    knowledge_base_id: Mapped[str] = mapped_column(
        ForeignKey("knowledge_bases.id", ondelete="CASCADE")
    )
    document_id: Mapped[str] = mapped_column(
        ForeignKey("knowledge_documents.id", ondelete="CASCADE")
    )
    collection: Mapped[str] = mapped_column(String(80))
    added_at: Mapped[datetime] = created_column()
    removed_at: Mapped[datetime | None] = mapped_column(default=None)


class KnowledgeChunk(Base):
    __tablename__ = "knowledge_chunks"
    __table_args__ = (
        Index("ix_knowledge_chunks_document", "document_id", "seq"),
        Index("ix_knowledge_chunks_kb", "knowledge_base_id"),
    )

    id: Mapped[str] = id_column()
    document_id: Mapped[str] = mapped_column(
        ForeignKey("knowledge_documents.id", ondelete="CASCADE")
    )
    knowledge_base_id: Mapped[str] = mapped_column(String(36))
    revision_id: Mapped[str | None] = mapped_column(String(36), default=None, index=True)
    seq: Mapped[int]
    text: Mapped[str] = mapped_column(Text)
    page: Mapped[int | None] = mapped_column(default=None)
    heading: Mapped[str | None] = mapped_column(String(1000), default=None)
