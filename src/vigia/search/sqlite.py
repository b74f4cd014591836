"""The SQLite search backend: FTS5 BM25 for words, stored float32 vectors for meaning.

Lexical: the FTS5 table ``search_fts`` (tokenizer ``unicode61 remove_diacritics 2``) holds
each entry's folded, stemmed content words under the entry's integer id as rowid; a query
is the OR of its terms, ranked by FTS5's ``bm25()``. Dense: brute force over an in-memory
matrix per collection (``vigia.search.vectors``). Hybrid: reciprocal-rank fusion of the two
candidate lists.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import bindparam, delete, func, select, text
from sqlalchemy.orm import Session

from vigia.db.base import new_id
from vigia.search.fusion import reciprocal_rank_fusion
from vigia.search.models import SearchCollection, SearchEntry
from vigia.search.protocol import Entry, Hit, Mode
from vigia.search.text import index_terms, query_terms
from vigia.search.vectors import Matrix, MatrixCache

CANDIDATES = 50
# BM25 in FTS5 scores every entry that holds any query term. A query keeps its terms from
# the rarest up while the entries they reach stay under this budget (always at least one
# term): common terms add little to BM25 and most of its cost on large collections.
POSTING_BUDGET = 6000
_BATCH = 500

_LEXICAL = text(
    "SELECT e.key, e.collection, bm25(search_fts) AS rank FROM search_fts "
    "JOIN search_entries AS e ON e.id = search_fts.rowid "
    "WHERE search_fts MATCH :match AND e.collection IN :collections "
    "ORDER BY rank LIMIT :limit"
).bindparams(bindparam("collections", expanding=True))
_DOC_FREQUENCY = text("SELECT term, doc FROM search_fts_vocab WHERE term IN :terms").bindparams(
    bindparam("terms", expanding=True)
)
_INSERT_FTS = text("INSERT INTO search_fts(rowid, terms) VALUES (:id, :terms)")
_DELETE_FTS = text("DELETE FROM search_fts WHERE rowid IN :ids").bindparams(
    bindparam("ids", expanding=True)
)


def _unit(vector: NDArray[np.floating]) -> NDArray[np.float32]:
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


class SqliteSearchIndex:
    """``SearchIndex`` on SQLite (FTS5 + vectors kept in memory per collection)."""

    def __init__(self, cache: MatrixCache | None = None) -> None:
        self.cache = cache or MatrixCache()

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
        for start in range(0, len(entries), _BATCH):
            batch = entries[start : start + _BATCH]
            rows = [
                SearchEntry(collection=collection, key=e.key, vector=_unit(e.vector).tobytes())
                for e in batch
            ]
            session.add_all(rows)
            session.flush()
            session.execute(
                _INSERT_FTS,
                [
                    {"id": r.id, "terms": index_terms(e.text)}
                    for r, e in zip(rows, batch, strict=True)
                ],
            )
        row.revision = new_id()
        session.flush()

    def remove(self, session: Session, collection: str, keys: Sequence[str]) -> int:
        removed = 0
        keys = list(keys)
        for start in range(0, len(keys), _BATCH):
            ids = list(
                session.scalars(
                    select(SearchEntry.id).where(
                        SearchEntry.collection == collection,
                        SearchEntry.key.in_(keys[start : start + _BATCH]),
                    )
                )
            )
            if ids:
                session.execute(_DELETE_FTS, {"ids": ids})
                session.execute(delete(SearchEntry).where(SearchEntry.id.in_(ids)))
                removed += len(ids)
        if removed:
            row = session.get(SearchCollection, collection)
            if row is not None:
                row.revision = new_id()
        session.flush()
        return removed

    def drop(self, session: Session, collection: str) -> None:
        session.execute(
            text(
                "DELETE FROM search_fts WHERE rowid IN "
                "(SELECT id FROM search_entries WHERE collection = :c)"
            ),
            {"c": collection},
        )
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
        terms = self._affordable(session, query_terms(query))
        if not terms or not collections:
            return []
        match = " OR ".join(f'"{t}"' for t in terms)
        rows = session.execute(
            _LEXICAL, {"match": match, "collections": list(collections), "limit": limit}
        ).all()
        return [(r[0], r[1], -float(r[2])) for r in rows]

    def _affordable(self, session: Session, terms: list[str]) -> list[str]:
        """The query's terms from the rarest up, within ``POSTING_BUDGET`` entries."""
        if len(terms) <= 1:
            return terms
        rows = session.execute(_DOC_FREQUENCY, {"terms": terms}).all()
        frequency: dict[str, int] = {str(r[0]): int(r[1]) for r in rows}
        kept: list[str] = []
        reached = 0
        for term in sorted(terms, key=lambda t: (frequency.get(t, 0), terms.index(t))):
            df = frequency.get(term, 0)
            if kept and reached + df > POSTING_BUDGET:
                break
            kept.append(term)
            reached += df
        return kept

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
        unit = _unit(vector) if vector is not None else None
        if unit is None and mode != "lexical":
            raise ValueError(f"{mode} search needs a query vector")
        matrices = self.matrices(session, collections) if unit is not None else {}

        def similarity(key: str, collection: str) -> float:
            matrix = matrices.get(collection)
            sim = matrix.similarity(unit, key) if matrix is not None and unit is not None else None
            return 0.0 if sim is None else sim

        depth = limit if mode != "hybrid" else max(CANDIDATES, limit)
        lexical = self.lexical(session, collections, query, depth) if mode != "dense" else []
        dense = self.dense(matrices, unit, depth) if unit is not None and mode != "lexical" else []
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
