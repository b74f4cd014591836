"""Lexical + dense hybrid search behind one protocol (SQLite: FTS5 BM25 + float32 vectors)."""

from vigia.search.protocol import Entry, Hit, SearchIndex
from vigia.search.registry import index_for

__all__ = ["Entry", "Hit", "SearchIndex", "index_for"]
