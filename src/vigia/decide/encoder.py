"""Text vectors for the decision model: one or more packaged encoders behind a shared cache.

Each text is embedded alone (never batched with others) so that its vector, and therefore
every answer, does not depend on what else a request or the cache holds. Options, levels,
asks and examples repeat across requests; the process-wide ``TEXT_VECTORS`` keeps them warm.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from vigia.embeddings import TEXT_VECTORS, Embedder, EncoderName, VectorCache, get_embedder


class TextEncoder:
    """Embeds texts with each named encoder; ``embed`` answers one matrix per encoder."""

    def __init__(self, encoders: dict[str, Embedder], cache: VectorCache | None = None) -> None:
        self.encoders = encoders
        self.cache = TEXT_VECTORS if cache is None else cache

    def embed(
        self, texts: Sequence[str], names: Sequence[str] | None = None
    ) -> dict[str, NDArray[np.float32]]:
        """One L2-normalised row per text, for every encoder (or only those ``names``)."""
        return {
            name: self.cache.queries(self.encoders[name], texts, one_by_one=True)
            for name in (self.encoders if names is None else names)
        }


@lru_cache(maxsize=4)
def get_text_encoder(names: tuple[EncoderName, ...]) -> TextEncoder:
    """The process-wide encoder for these packaged models (loaded once, on first use).

    Every such encoder shares the process-wide vector cache (keyed by encoder and text): a
    request with examples (zero-shot and examples encoders) reuses what zero-shot requests
    embedded.
    """
    return TextEncoder({name: get_embedder(name) for name in names})
