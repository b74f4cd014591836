"""Tables every search backend shares: collections and their entries' vectors.

The lexical side is backend specific and written in SQL by its backend: on SQLite an FTS5
table ``search_fts`` whose rowid is ``search_entries.id`` (migration ``0002_knowledge``); on
PostgreSQL ``search_terms`` (per entry), ``search_totals`` (per collection),
``search_vocabulary`` (per term and collection) and ``search_postings`` (per term and entry),
migrations ``0006_search_postgres``, ``0015_search_vocabulary`` and ``0016_search_postings``.
"""

from __future__ import annotations

from sqlalchemy import Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base


class SearchCollection(Base):
    """A named set of entries; ``revision`` changes on every write (dense caches key on it)."""

    __tablename__ = "search_collections"

    name: Mapped[str] = mapped_column(String(80), primary_key=True)
    dim: Mapped[int]
    revision: Mapped[str] = mapped_column(String(36))


class SearchEntry(Base):
    """One searchable item: the caller's key and its unit-length float32 vector."""

    __tablename__ = "search_entries"
    __table_args__ = (Index("ix_search_entries_collection_key", "collection", "key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    collection: Mapped[str] = mapped_column(String(80))
    key: Mapped[str] = mapped_column(String(64))
    vector: Mapped[bytes] = mapped_column(LargeBinary)
