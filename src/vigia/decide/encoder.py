"""Text vectors for the decision model: one or more packaged encoders behind a shared cache.

Each text is embedded alone (never batched with others) so that its vector, and therefore
every answer, does not depend on what else a request or the cache holds. Options, levels,
asks and examples repeat across requests; an LRU cache keeps them warm.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from vigia.embeddings import Embedder, EncoderName, get_embedder

Vector = NDArray[np.float32]
CACHE_TEXTS = 50_000


class VectorCache:
    """A bounded, thread-safe map from (encoder, text) to its vector."""

    def __init__(self, capacity: int = CACHE_TEXTS) -> None:
        self._items: OrderedDict[tuple[str, str], Vector] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str]) -> Vector | None:
        with self._lock:
            vector = self._items.get(key)
            if vector is not None:
                self._items.move_to_end(key)
            return vector

    def put(self, key: tuple[str, str], vector: Vector) -> None:
        with self._lock:
            self._items[key] = vector
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class TextEncoder:
    """Embeds texts with each named encoder; ``embed`` answers one matrix per encoder."""

    def __init__(self, encoders: dict[str, Embedder], cache: VectorCache | None = None) -> None:
        self.encoders = encoders
        self.cache = cache or VectorCache()

    def embed(
        self, texts: Sequence[str], names: Sequence[str] | None = None
    ) -> dict[str, NDArray[np.float32]]:
        """One L2-normalised row per text, for every encoder (or only those ``names``)."""
        out: dict[str, NDArray[np.float32]] = {}
        for name in self.encoders if names is None else names:
            encoder = self.encoders[name]
            rows = [self._vector(name, encoder.queries, text) for text in texts]
            out[name] = np.stack(rows) if rows else np.zeros((0, encoder.dim), dtype=np.float32)
        return out

    def _vector(self, name: str, embed: Callable[[list[str]], Vector], text: str) -> Vector:
        key = (name, text)
        vector = self.cache.get(key)
        if vector is None:
            vector = np.asarray(embed([text])[0], dtype=np.float32)
            vector.setflags(write=False)
            self.cache.put(key, vector)
        return vector


SHARED_CACHE = VectorCache()


@lru_cache(maxsize=4)
def get_text_encoder(names: tuple[EncoderName, ...]) -> TextEncoder:
    """The process-wide encoder for these packaged models (loaded once, on first use).

    Every such encoder shares one vector cache (keyed by encoder and text): a request with
    examples (zero-shot and examples encoders) reuses what zero-shot requests embedded.
    """
    return TextEncoder({name: get_embedder(name) for name in names}, SHARED_CACHE)
