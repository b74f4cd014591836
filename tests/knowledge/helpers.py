"""Shared helpers of the knowledge tests."""

from __future__ import annotations

from sqlalchemy import func, select, text

from vigia.db.session import session_scope
from vigia.knowledge.models import KnowledgeChunk, KnowledgeDocument
from vigia.search.models import SearchEntry


def stored_counts() -> dict[str, int]:
    """Rows of every table a document writes to (the lexical index's table per backend)."""
    with session_scope() as session:
        lexical = (
            "search_terms" if session.get_bind().dialect.name == "postgresql" else "search_fts"
        )
        return {
            "documents": session.scalar(select(func.count()).select_from(KnowledgeDocument)) or 0,
            "chunks": session.scalar(select(func.count()).select_from(KnowledgeChunk)) or 0,
            "entries": session.scalar(select(func.count()).select_from(SearchEntry)) or 0,
            "fts": session.scalar(text(f"SELECT count(*) FROM {lexical}")) or 0,
        }
