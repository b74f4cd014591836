"""Dense search by brute force: one float32 matrix per collection, kept in memory.

Vectors are stored in ``search_entries`` at ingestion; the first search of a collection
loads them once into a matrix, later searches reuse it until the collection's revision
changes (any write gives it a new random revision, so a rolled-back write can never be
mistaken for a committed one). Cached matrices are evicted least recently used past
``MAX_CACHE_BYTES``.

Up to ``APPROX_MIN_ROWS`` entries a query is one exact matrix-vector product. Larger
collections also keep their vectors projected on their ``COARSE_DIM`` principal axes
(fitted on a sample at load): a query first scores the projection (a quarter of the memory
to read), then re-scores the best ``RERANK`` candidates exactly. Returned similarities are
always exact cosines; only which entries reach the re-scoring is approximate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.kit.cache import LRUCache
from vigia.search.models import SearchEntry

MAX_CACHE_BYTES = 2 * 1024**3
APPROX_MIN_ROWS = 50_000
COARSE_DIM = 128
SAMPLE_ROWS = 8192
RERANK = 512


@dataclass
class Matrix:
    """A collection's vectors, row ``i`` belonging to ``keys[i]``."""

    revision: str
    keys: list[str]
    vectors: NDArray[np.float32]
    projection: NDArray[np.float32] | None = field(default=None, repr=False)
    coarse: NDArray[np.float32] | None = field(default=None, repr=False)
    _rows: dict[str, int] | None = field(default=None, repr=False)

    @property
    def nbytes(self) -> int:
        extra = self.coarse.nbytes if self.coarse is not None else 0
        return int(self.vectors.nbytes + extra)

    def project(self) -> None:
        """Fits the principal axes on a sample and keeps the projected vectors."""
        n, dim = self.vectors.shape
        if dim <= COARSE_DIM:
            return
        step = max(1, n // SAMPLE_ROWS)
        sample = self.vectors[::step][:SAMPLE_ROWS]
        gram = (sample.T @ sample).astype(np.float64)
        _, eigenvectors = np.linalg.eigh(gram)  # ascending eigenvalues
        axes = eigenvectors[:, ::-1][:, :COARSE_DIM].T
        self.projection = np.ascontiguousarray(axes, dtype=np.float32)
        self.coarse = np.ascontiguousarray(self.vectors @ self.projection.T, dtype=np.float32)

    def _candidates(self, query: NDArray[np.float32], limit: int) -> NDArray[np.intp]:
        """Rows worth scoring exactly: all of them, or the best of the projection."""
        n = len(self.keys)
        wanted = max(RERANK, 8 * limit)
        if self.coarse is None or self.projection is None or wanted >= n:
            return np.arange(n)
        rough = self.coarse @ (self.projection @ query)
        return np.argpartition(-rough, wanted - 1)[:wanted]

    def row(self, key: str) -> int | None:
        if self._rows is None:
            self._rows = {k: i for i, k in enumerate(self.keys)}
        return self._rows.get(key)

    def top(self, query: NDArray[np.float32], limit: int) -> list[tuple[str, float]]:
        """The ``limit`` most similar keys with their cosine, best first."""
        if not self.keys or limit <= 0:
            return []
        rows = self._candidates(query, limit)
        exact = rows.size == len(self.keys)
        sims = self.vectors @ query if exact else self.vectors[rows] @ query
        if limit < len(sims):
            best = np.argpartition(-sims, limit - 1)[:limit]
        else:
            best = np.arange(len(sims))
        ids = best if exact else rows[best]
        order = np.lexsort((ids, -sims[best]))
        return [(self.keys[int(ids[i])], float(sims[best[i]])) for i in order]

    def similarity(self, query: NDArray[np.float32], key: str) -> float | None:
        row = self.row(key)
        return None if row is None else float(self.vectors[row] @ query)


def load_matrix(session: Session, collection: str, revision: str, dim: int) -> Matrix:
    """Reads a collection's stored vectors into one matrix."""
    rows = session.execute(
        select(SearchEntry.key, SearchEntry.vector)
        .where(SearchEntry.collection == collection)
        .order_by(SearchEntry.id)
    ).all()
    keys = [r[0] for r in rows]
    if rows:
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
        vectors = vectors.reshape(len(rows), dim)
    else:
        vectors = np.zeros((0, dim), dtype=np.float32)
    matrix = Matrix(revision, keys, vectors)
    if len(keys) >= APPROX_MIN_ROWS:
        matrix.project()
    return matrix


class MatrixCache:
    """Process-wide matrices per collection, valid for one revision each."""

    def __init__(self, max_bytes: int = MAX_CACHE_BYTES) -> None:
        self._matrices: LRUCache[str, Matrix] = LRUCache(max_bytes, weigh=lambda m: m.nbytes)

    def get(self, session: Session, collection: str, revision: str, dim: int) -> Matrix:
        """The matrix of ``collection`` at ``revision``, loading it when stale or missing."""
        cached = self._matrices.get(collection)
        if cached is not None and cached.revision == revision:
            return cached
        matrix = load_matrix(session, collection, revision, dim)
        self._matrices.put(collection, matrix)
        return matrix

    def clear(self) -> None:
        self._matrices.clear()
