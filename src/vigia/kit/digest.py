"""File digests."""

from __future__ import annotations

import hashlib
from pathlib import Path


def file_sha256(path: Path) -> str:
    """The file's SHA-256 as lowercase hex, read in 1 MiB pieces (a GGUF is gigabytes)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while piece := handle.read(1 << 20):
            digest.update(piece)
    return digest.hexdigest()
