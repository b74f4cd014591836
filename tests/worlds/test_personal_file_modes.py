"""Personal files are readable by the server's user only: files 0600 in 0700 folders."""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from tests.worlds.conftest import log_in


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_personal_files_are_private(
    client: TestClient, make_user: Callable[[str], str], data_dir: Path
) -> None:
    user_id = make_user("alice")
    log_in(client, "alice")
    response = client.post(
        "/personal/files", files={"file": ("notas/mias.txt", b"PAYCALC usa TAXPARM\n")}
    )
    assert response.status_code == 201, response.text
    root = data_dir / "worlds" / "personal" / user_id
    assert mode(root / "notas" / "mias.txt") == 0o600
    for folder in (data_dir / "worlds", data_dir / "worlds" / "personal", root, root / "notas"):
        assert mode(folder) == 0o700, folder
