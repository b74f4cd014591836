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

from vigia.decide.texts import StateText
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


def embed_states(
    encoder: TextEncoder, states: Sequence[StateText], names: Sequence[str], facts_weight: float
) -> dict[str, NDArray[np.float32]]:
    """One L2-normalised row per state: its prose vector plus ``facts_weight`` times its
    facts vector, re-normalised (a state of prose or of facts only: that text's vector).

    So ``{"mensaje": m}`` reads exactly as ``m``, and ``{"canal": "chat", "mensaje": m}``
    reads as ``m`` nudged towards the channel: metadata never outweighs the message.
    """
    texts = [text for state in states for text in (state.prose, state.facts) if text]
    embedded = encoder.embed(texts, names)
    rows: dict[str, NDArray[np.float32]] = {}
    for name in names:
        vectors = iter(embedded[name].astype(np.float64))
        mixed = []
        for state in states:
            prose = next(vectors) if state.prose else None
            facts = next(vectors) if state.facts else None
            if prose is None or facts is None:
                row = prose if prose is not None else facts
                mixed.append(row if row is not None else np.zeros(embedded[name].shape[1]))
                continue
            row = prose + facts_weight * facts
            mixed.append(row / max(float(np.linalg.norm(row)), 1e-12))
        rows[name] = np.array(mixed, dtype=np.float32).reshape(len(states), -1)
    return rows
