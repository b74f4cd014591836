"""Picks the search backend for a session's database."""

from __future__ import annotations

from sqlalchemy.orm import Session

from vigia.search.protocol import SearchIndex
from vigia.search.sqlite import SqliteSearchIndex

_SQLITE = SqliteSearchIndex()


def index_for(session: Session) -> SearchIndex:
    """The search index for ``session``'s database (one process-wide instance per backend)."""
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite":
        return _SQLITE
    # TODO(postgres): a PostgresSearchIndex (tsvector + GIN for BM25-like ranking, the same
    # in-memory matrices for vectors) that passes tests/search/contract.py.
    raise NotImplementedError(f"no search backend for '{dialect}' yet (see docs/knowledge.md)")
