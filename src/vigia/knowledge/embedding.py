"""Which embedding model a knowledge base uses (fixed at its creation: vectors must match)."""

from __future__ import annotations

from vigia.embeddings import Embedder, get_embedder

EMBEDDERS = ("use", "e5")
DEFAULT_EMBEDDER = "use"
BATCH = 64


def embedder_for(name: str) -> Embedder:
    """The process-wide encoder of a knowledge base."""
    return get_embedder("e5" if name == "e5" else "use")
