"""Picks the search backend for a session's database."""

from __future__ import annotations

from sqlalchemy.orm import Session

from vigia.search.postgres import PostgresSearchIndex
from vigia.search.protocol import SearchIndex
from vigia.search.sqlite import SqliteSearchIndex

_BACKENDS: dict[str, SearchIndex] = {
    "sqlite": SqliteSearchIndex(),
    "postgresql": PostgresSearchIndex(),
}


def index_for(session: Session) -> SearchIndex:
    """The search index for ``session``'s database (one process-wide instance per backend)."""
    dialect = session.get_bind().dialect.name
    backend = _BACKENDS.get(dialect)
    if backend is None:
        raise NotImplementedError(f"no search backend for '{dialect}' (see docs/knowledge.md)")
    return backend
