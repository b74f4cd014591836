"""Lexical + dense hybrid search behind one protocol: BM25 (SQLite FTS5 or PostgreSQL tsvector)
plus float32 vectors searched in memory, fused by reciprocal rank."""

from vigia.search.protocol import Entry, Hit, SearchIndex
from vigia.search.registry import index_for
from vigia.search.text import CODE, PROSE, Analyzer

__all__ = ["CODE", "PROSE", "Analyzer", "Entry", "Hit", "SearchIndex", "index_for"]
