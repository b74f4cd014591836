"""A backup is readable by its owner only: folders 0700 and files 0600, whatever the umask,
the folder it was given or the modes of the files it copied."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from vigia.operations.backup import backup


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def test_every_file_of_a_backup_is_0600_in_0700_folders(
    data_dir: Path, tmp_path: Path, open_umask: None
) -> None:
    notes = data_dir / "worlds" / "personal" / "u1" / "notas.txt"
    notes.parent.mkdir(parents=True)
    notes.write_text("mis notas")
    notes.chmod(0o644)  # as an older version left it
    destination = tmp_path / "backups" / "hoy"
    destination.mkdir(parents=True, mode=0o755)

    backup(destination)

    paths = [destination, *destination.rglob("*")]
    assert any(p.name == "notas.txt" for p in paths) and any(
        p.name == "manifest.json" for p in paths
    )
    for path in paths:
        expected = 0o700 if path.is_dir() else 0o600
        assert _mode(path) == expected, (path, oct(_mode(path)))
