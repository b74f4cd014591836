"""The GGUF files the operator registered (``vigia model add``): the only ones agents may name.

A JSON file in the data dir, ``models.json``: one entry per absolute path, with the SHA-256
the operator stated and the file matched when it was added. It lives next to the model
files it names (each machine, each replica, registers its own copies).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from vigia.config import get_settings
from vigia.errors import Invalid
from vigia.kit.digest import file_sha256
from vigia.llm.gguf import gguf_file

CATALOG_FILE = "models.json"
SHA256 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class LocalModelFile:
    """A registered model file."""

    path: str
    sha256: str
    size: int
    added_at: str


def _catalog() -> Path:
    return get_settings().data_dir / CATALOG_FILE


def registered_models() -> list[LocalModelFile]:
    """Every registered file, in the order they were added."""
    path = _catalog()
    if not path.exists():
        return []
    entries = json.loads(path.read_text(encoding="utf-8")).get("models", [])
    return [LocalModelFile(**entry) for entry in entries]


def registered(path: str | Path) -> LocalModelFile | None:
    """The entry of ``path`` (made absolute), if the operator registered it."""
    wanted = str(Path(path).expanduser().resolve())
    return next((m for m in registered_models() if m.path == wanted), None)


def add_model(path: str | Path, sha256: str) -> LocalModelFile:
    """Registers a GGUF file whose SHA-256 is ``sha256``; ``Invalid`` when it is not one, or
    when its content has another checksum (nothing is registered then)."""
    stated = sha256.strip().lower()
    if not SHA256.match(stated):
        raise Invalid("--sha256 must be 64 hexadecimal characters")
    file = gguf_file(path)
    actual = file_sha256(file)
    if actual != stated:
        raise Invalid(f"checksum mismatch for {file}: the file's SHA-256 is {actual}")
    entry = LocalModelFile(
        str(file), actual, file.stat().st_size, datetime.now(UTC).isoformat(timespec="seconds")
    )
    kept = [m for m in registered_models() if m.path != entry.path]
    _write([*kept, entry])
    return entry


def _write(models: list[LocalModelFile]) -> None:
    path = _catalog()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(
        json.dumps({"models": [asdict(m) for m in models]}, indent=2), encoding="utf-8"
    )
    os.replace(temporary, path)  # readers see the old catalog or the new one, never half


def require_registered(path: str) -> Path:
    """The registered GGUF file ``path`` names; ``Invalid`` when it is missing, not a GGUF
    file, not registered, or when this installation lacks the ``local`` extra."""
    file = gguf_file(path)
    if registered(file) is None:
        raise Invalid(
            f"model file {file} is not registered: run `vigia model add {file} --sha256 HEX`"
        )
    if importlib.util.find_spec("xllamacpp") is None:
        raise Invalid("local models need the local extra: pip install 'vigia[local]'")
    return file
