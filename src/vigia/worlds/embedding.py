"""Passage and query vectors of world chunks: the packaged multilingual USE encoder (512-d,
pure numpy, fast enough to embed a 57,000-line code base in seconds), so that Spanish and
Portuguese questions meet English code and comments.

Benchmarks and tests (never the product) may keep vectors between runs: on disk
(``use_disk_cache``) or in memory (``use_memory_cache``), keyed by a hash of the encoder's
name and the text. The product embeds every passage it indexes, so indexing times are
honest even for a code base made of copies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vigia.embeddings import Embedder, Vectors, get_embedder

BATCH = 256
Progress = Callable[[int, int], None]


class _Cache:
    """Vectors by text hash, in memory or in one ``.npz`` file (loaded once, rewritten
    after additions)."""

    def __init__(self, folder: Path | None) -> None:
        self.file = folder / "world-passages.npz" if folder is not None else None
        self.vectors: dict[str, Vectors] = {}
        if self.file is not None and self.file.exists():
            with np.load(self.file) as stored:
                keys, matrix = stored["keys"], stored["vectors"]
                self.vectors = {str(k): matrix[i] for i, k in enumerate(keys)}

    def save(self) -> None:
        if self.file is None:
            return
        self.file.parent.mkdir(parents=True, exist_ok=True)
        keys = np.array(list(self.vectors), dtype=str)
        matrix = np.stack(list(self.vectors.values())) if self.vectors else np.zeros((0, 1))
        np.savez(self.file, keys=keys, vectors=matrix)


_disk: _Cache | None = None


def use_disk_cache(folder: Path) -> None:
    """Keeps passage vectors under ``folder`` across processes (benchmarks only)."""
    global _disk
    _disk = _Cache(folder)


def use_memory_cache() -> None:
    """Keeps passage vectors for the rest of the process (tests only)."""
    global _disk
    _disk = _Cache(None)


def embedder() -> Embedder:
    """The encoder of every world collection (vectors must match across a collection)."""
    return get_embedder("use")


def _digest(model: str, text: str) -> str:
    return hashlib.sha256(f"{model}\0{text}".encode()).hexdigest()


def passages(texts: list[str], progress: Progress | None = None) -> Vectors:
    """One unit vector per text, in batches, reporting ``(done, total)`` after each."""
    model = embedder()
    out = np.zeros((len(texts), model.dim), dtype=np.float32)
    todo = list(range(len(texts)))
    keys: list[str] = []
    if _disk is not None:
        keys = [_digest(model.name, t) for t in texts]
        todo = [i for i in todo if keys[i] not in _disk.vectors]
        for i, key in enumerate(keys):
            if key in _disk.vectors:
                out[i] = _disk.vectors[key]
    done = len(texts) - len(todo)
    for start in range(0, len(todo), BATCH):
        batch = todo[start : start + BATCH]
        out[batch] = model.passages([texts[i] for i in batch])
        done += len(batch)
        if progress is not None:
            progress(done, len(texts))
    if progress is not None and not todo:
        progress(done, len(texts))
    if _disk is not None and todo:
        _disk.vectors.update({keys[i]: out[i] for i in todo})
        _disk.save()
    return out


def query(text: str) -> Vectors:
    """The vector of a question."""
    vector: Vectors = embedder().queries([text])[0]
    return vector
