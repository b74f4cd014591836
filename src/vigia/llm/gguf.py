"""GGUF model files: whether a path is one, and its SHA-256 (for ``vigia model add``)."""

from __future__ import annotations

from pathlib import Path

from vigia.errors import Invalid

GGUF_MAGIC = b"GGUF"
"""The first four bytes of every GGUF file (llama.cpp's model format)."""


def gguf_file(path: str | Path) -> Path:
    """``path`` made absolute, once it names a readable GGUF file; else ``Invalid`` says why."""
    file = Path(path).expanduser().resolve()
    if not file.exists():
        raise Invalid(f"model file {file} does not exist")
    if not file.is_file():
        raise Invalid(f"model file {file} is not a file")
    try:
        with file.open("rb") as handle:
            magic = handle.read(len(GGUF_MAGIC))
    except OSError as error:
        raise Invalid(f"model file {file} cannot be read: {error.strerror}") from error
    if magic != GGUF_MAGIC:
        raise Invalid(f"model file {file} is not a GGUF file (llama.cpp's format)")
    return file
