"""Files only their owner may read: folders 0700, files 0600 (the database, secrets, uploads).

Modes are set at creation (``os.open`` / ``mkdir`` with the mode, so there is no moment when
the file is readable by others) and tightened on files an older version left 0644.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """Creates ``path`` (and missing parents) 0700; an existing folder is left as it is."""
    missing: list[Path] = []
    current = path
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        folder.mkdir(mode=DIR_MODE, exist_ok=True)
    return path


def private_file(path: Path) -> Path:
    """Creates ``path`` empty and 0600 if missing; an existing one loses group/other access."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        tighten(path)
    else:
        os.close(descriptor)
    return path


def tighten(path: Path) -> None:
    """Removes group/other permissions from an existing file (no-op when already private, or
    when the file is not ours to change: then its owner chose its mode)."""
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        with contextlib.suppress(PermissionError):
            path.chmod(mode & ~0o077)


def write_private(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` (replacing its content), the file being 0600."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)
    tighten(path)
