"""Dense search over large collections: projected first pass, exact re-scoring."""

from __future__ import annotations

import numpy as np

from vigia.search import vectors
from vigia.search.vectors import Matrix


def _embedding_like(rng: np.random.Generator, n: int, dim: int = 192) -> np.ndarray:
    """Unit vectors concentrated near a 32-d subspace, as sentence embeddings are."""
    basis = rng.standard_normal((32, dim))
    data = rng.standard_normal((n, 32)) @ basis + 0.3 * rng.standard_normal((n, dim))
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def test_projected_search_finds_what_exact_search_finds() -> None:
    rng = np.random.default_rng(3)
    data = _embedding_like(rng, 3000)
    keys = [f"k{i}" for i in range(len(data))]
    exact = Matrix("r", keys, data)
    approx = Matrix("r", keys, data)
    approx.project()
    assert approx.coarse is not None and approx.coarse.shape == (3000, vectors.COARSE_DIM)
    overlap = []
    for i in range(20):
        query = data[i * 7] + 0.2 * np.asarray(rng.standard_normal(data.shape[1]), np.float32)
        query /= np.linalg.norm(query)
        want = exact.top(query, 10)
        got = approx.top(query, 10)
        overlap.append(len({k for k, _ in want} & {k for k, _ in got}) / 10)
        found = dict(want)
        assert all(abs(found[k] - s) < 1e-5 for k, s in got if k in found)  # exact cosines
        assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
    assert np.mean(overlap) >= 0.95


def test_small_collections_are_searched_exactly() -> None:
    rng = np.random.default_rng(4)
    data = _embedding_like(rng, 300)
    matrix = Matrix("r", [str(i) for i in range(300)], data)
    matrix.project()
    query = data[5]
    assert matrix.top(query, 1)[0][0] == "5"  # fewer rows than RERANK: all scored exactly
