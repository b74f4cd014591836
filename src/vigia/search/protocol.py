"""The search protocol every backend implements, and the shapes it exchanges.

An index holds *entries* grouped in named *collections* (a knowledge base, a world…). Each
entry has a caller-chosen key, a text for lexical search and a unit-length float32 vector
for dense search, both computed by the caller at ingestion: searching never re-embeds.
Writes happen inside the caller's SQLAlchemy session, so they commit or roll back with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import numpy as np
from numpy.typing import NDArray
from sqlalchemy.orm import Session

from vigia.search.text import PROSE, Analyzer

Mode = Literal["lexical", "dense", "hybrid"]


@dataclass(frozen=True)
class Entry:
    """One searchable item: ``key`` is the caller's id (e.g. a chunk id)."""

    key: str
    text: str
    vector: NDArray[np.float32]


@dataclass(frozen=True)
class Hit:
    """A search result, best first.

    ``score`` is what ranks the hits (the reciprocal-rank fusion score in hybrid mode, BM25
    in lexical mode, cosine in dense mode); ``similarity`` is the cosine between query and
    entry in [-1, 1] whenever the vector is known, whatever the mode.
    """

    key: str
    collection: str
    score: float
    similarity: float
    lexical_rank: int | None = None
    dense_rank: int | None = None


class SearchIndex(Protocol):
    """Hybrid lexical + dense search over collections of entries."""

    def add(
        self,
        session: Session,
        collection: str,
        entries: Sequence[Entry],
        analyzer: Analyzer = PROSE,
    ) -> None:
        """Adds entries (keys must be new in the collection); ``analyzer`` makes their terms."""
        ...

    def remove(self, session: Session, collection: str, keys: Sequence[str]) -> int:
        """Removes entries by key; returns how many were removed."""
        ...

    def drop(self, session: Session, collection: str) -> None:
        """Removes a whole collection."""
        ...

    def count(self, session: Session, collection: str) -> int:
        """How many entries the collection holds."""
        ...

    def search(
        self,
        session: Session,
        collections: Sequence[str],
        query: str,
        vector: NDArray[np.float32] | None,
        limit: int = 5,
        mode: Mode = "hybrid",
        analyzer: Analyzer = PROSE,
    ) -> list[Hit]:
        """The best ``limit`` entries of ``collections`` for the query, best first.

        ``analyzer`` must be the one the collections' entries were added with."""
        ...
