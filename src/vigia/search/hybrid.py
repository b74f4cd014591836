"""What every search backend shares: entry rows, dense search, rarest-first terms, fusion.

A backend subclasses ``HybridSearchIndex`` and supplies its lexical side: how an entry's
words are indexed (``index_words``) and unindexed (``unindex``, ``unindex_collection``), the
document frequency of terms (``document_frequency_sql``) and the BM25 ranking itself
(``rank_lexical``). Entries, vectors, collection revisions, dense search (in-memory
matrices, ``vigia.search.vectors``) and the reciprocal-rank fusion of both sides are here,
so the backends rank alike by construction.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import TextClause, delete, func, select
from sqlalchemy.orm import Session

from vigia.db.base import new_id
from vigia.search.fusion import reciprocal_rank_fusion
from vigia.search.models import SearchCollection, SearchEntry
from vigia.search.protocol import Entry, Hit, Mode
from vigia.search.text import query_terms
from vigia.search.vectors import Matrix, MatrixCache

CANDIDATES = 50
# BM25 scores every entry that holds any query term. A query keeps its terms from the
# rarest up while the entries they reach stay under this budget (always at least one
# term): common terms add little to BM25 and most of its cost on large collections.
POSTING_BUDGET = 6000
BATCH = 500


def unit(vector: NDArray[np.floating]) -> NDArray[np.float32]:
    """``vector`` as a flat float32 vector of length 1 (the zero vector stays zero)."""
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def affordable(terms: list[str], frequency: dict[str, int], budget: int) -> list[str]:
    """The terms from the rarest up while the entries they reach stay within ``budget``."""
    kept: list[str] = []
    reached = 0
    for term in sorted(terms, key=lambda t: (frequency.get(t, 0), terms.index(t))):
        df = frequency.get(term, 0)
        if kept and reached + df > budget:
            break
        kept.append(term)
        reached += df
    return kept


class HybridSearchIndex:
    """``SearchIndex`` logic common to all backends; the lexical side is left to subclasses."""

    document_frequency_sql: TextClause
    """Per backend: ``(term, entries holding it)`` rows for the bound list ``:terms``."""

    def __init__(self, cache: MatrixCache | None = None) -> None:
        self.cache = cache or MatrixCache()

    # the lexical side, per backend --------------------------------------------------

    def index_words(self, session: Session, collection: str, rows: list[tuple[int, str]]) -> None:
        """Indexes the words of new entries of ``collection``, given as (entry id, text)."""
        raise NotImplementedError

    def unindex(self, session: Session, collection: str, ids: list[int]) -> None:
        """Forgets the words of entries about to be deleted."""
        raise NotImplementedError

    def unindex_collection(self, session: Session, collection: str) -> None:
        """Forgets the words of a whole collection about to be deleted."""
        raise NotImplementedError

    def document_frequency(self, session: Session, terms: list[str]) -> dict[str, int]:
        """How many entries (of every collection) hold each term."""
        rows = session.execute(self.document_frequency_sql, {"terms": terms}).all()
        return {str(r[0]): int(r[1]) for r in rows}

    def rank_lexical(
        self,
        session: Session,
        collections: Sequence[str],
        terms: list[str],
        limit: int,
        frequency: dict[str, int] | None = None,
    ) -> list[tuple[str, str, float]]:
        """(key, collection, BM25) of the best entries holding any of ``terms``, best first.

        ``frequency`` is ``document_frequency`` of the terms when the caller knows it.
        """
        raise NotImplementedError

    # writes ---------------------------------------------------------------------------

    def add(self, session: Session, collection: str, entries: Sequence[Entry]) -> None:
        if not entries:
            return
        dim = int(np.asarray(entries[0].vector).size)
        if any(np.asarray(e.vector).size != dim for e in entries):
            raise ValueError("all vectors of a batch must have the same dimension")
        row = session.get(SearchCollection, collection)
        if row is None:
            row = SearchCollection(name=collection, dim=dim, revision=new_id())
            session.add(row)
        elif row.dim != dim:
            raise ValueError(f"collection '{collection}' holds {row.dim}-d vectors, not {dim}-d")
        for start in range(0, len(entries), BATCH):
            batch = entries[start : start + BATCH]
            rows = [
                SearchEntry(collection=collection, key=e.key, vector=unit(e.vector).tobytes())
                for e in batch
            ]
            session.add_all(rows)
            session.flush()
            words = [(r.id, e.text) for r, e in zip(rows, batch, strict=True)]
            self.index_words(session, collection, words)
        row.revision = new_id()
        session.flush()

    def remove(self, session: Session, collection: str, keys: Sequence[str]) -> int:
        removed = 0
        keys = list(keys)
        for start in range(0, len(keys), BATCH):
            ids = list(
                session.scalars(
                    select(SearchEntry.id).where(
                        SearchEntry.collection == collection,
                        SearchEntry.key.in_(keys[start : start + BATCH]),
                    )
                )
            )
            if ids:
                self.unindex(session, collection, ids)
                session.execute(delete(SearchEntry).where(SearchEntry.id.in_(ids)))
                removed += len(ids)
        if removed:
            row = session.get(SearchCollection, collection)
            if row is not None:
                row.revision = new_id()
        session.flush()
        return removed

    def drop(self, session: Session, collection: str) -> None:
        self.unindex_collection(session, collection)
        session.execute(delete(SearchEntry).where(SearchEntry.collection == collection))
        session.execute(delete(SearchCollection).where(SearchCollection.name == collection))
        session.flush()

    def count(self, session: Session, collection: str) -> int:
        return int(
            session.scalar(
                select(func.count())
                .select_from(SearchEntry)
                .where(SearchEntry.collection == collection)
            )
            or 0
        )

    # reads ----------------------------------------------------------------------------

    def matrices(self, session: Session, collections: Sequence[str]) -> dict[str, Matrix]:
        """The in-memory vector matrices of ``collections``, current with their revision."""
        rows = session.execute(
            select(SearchCollection.name, SearchCollection.revision, SearchCollection.dim).where(
                SearchCollection.name.in_(list(collections))
            )
        ).all()
        return {name: self.cache.get(session, name, rev, dim) for name, rev, dim in rows}

    def lexical(
        self, session: Session, collections: Sequence[str], query: str, limit: int
    ) -> list[tuple[str, str, float]]:
        """(key, collection, BM25 relevance) of the best lexical matches, best first."""
        terms = query_terms(query)
        if not terms or not collections:
            return []
        frequency = None
        if len(terms) > 1:
            frequency = self.document_frequency(session, terms)
            terms = affordable(terms, frequency, POSTING_BUDGET)
        return self.rank_lexical(session, collections, terms, limit, frequency)

    def dense(
        self,
        matrices: dict[str, Matrix],
        vector: NDArray[np.float32],
        limit: int,
    ) -> list[tuple[str, str, float]]:
        """(key, collection, cosine) of the nearest entries, best first."""
        found: list[tuple[str, str, float]] = []
        for name, matrix in matrices.items():
            if matrix.vectors.shape[1] != vector.size:
                held = matrix.vectors.shape[1]
                raise ValueError(f"query has {vector.size} dimensions, '{name}' holds {held}")
            found += [(key, name, sim) for key, sim in matrix.top(vector, limit)]
        found.sort(key=lambda h: (-h[2], h[1], h[0]))
        return found[:limit]

    def search(
        self,
        session: Session,
        collections: Sequence[str],
        query: str,
        vector: NDArray[np.float32] | None,
        limit: int = 5,
        mode: Mode = "hybrid",
    ) -> list[Hit]:
        if not collections or limit <= 0:
            return []
        query_unit = unit(vector) if vector is not None else None
        if query_unit is None and mode != "lexical":
            raise ValueError(f"{mode} search needs a query vector")
        matrices = self.matrices(session, collections) if query_unit is not None else {}

        def similarity(key: str, collection: str) -> float:
            matrix = matrices.get(collection)
            if matrix is None or query_unit is None:
                return 0.0
            sim = matrix.similarity(query_unit, key)
            return 0.0 if sim is None else sim

        depth = limit if mode != "hybrid" else max(CANDIDATES, limit)
        lexical = self.lexical(session, collections, query, depth) if mode != "dense" else []
        dense = (
            self.dense(matrices, query_unit, depth)
            if query_unit is not None and mode != "lexical"
            else []
        )
        if mode == "lexical":
            return [
                Hit(k, c, s, similarity(k, c), lexical_rank=i)
                for i, (k, c, s) in enumerate(lexical, 1)
            ]
        if mode == "dense":
            return [Hit(k, c, s, s, dense_rank=i) for i, (k, c, s) in enumerate(dense, 1)]
        where = {k: c for k, c, _ in lexical} | {k: c for k, c, _ in dense}
        lexical_rank = {k: i for i, (k, _, _) in enumerate(lexical, 1)}
        dense_rank = {k: i for i, (k, _, _) in enumerate(dense, 1)}
        sims = {k: s for k, _, s in dense}
        fused = reciprocal_rank_fusion([[k for k, _, _ in lexical], [k for k, _, _ in dense]])
        hits = [
            Hit(
                key,
                where[key],
                score,
                sims[key] if key in sims else similarity(key, where[key]),
                lexical_rank.get(key),
                dense_rank.get(key),
            )
            for key, score in fused.items()
        ]
        hits.sort(key=lambda h: (-h.score, -h.similarity, h.key))
        return hits[:limit]
