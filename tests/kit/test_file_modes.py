"""What Vigia writes to disk is readable by its owner only: folders 0700, files 0600."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from sqlalchemy import text

from vigia.config import get_settings
from vigia.db import session as db_session
from vigia.db.migrate import upgrade
from vigia.db.session import get_engine


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def fresh_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory that does not exist yet, on the embedded SQLite database."""
    folder = tmp_path / "nuevo" / "data"
    monkeypatch.setenv("VIGIA_DATA_DIR", str(folder))
    monkeypatch.delenv("VIGIA_DATABASE_URL", raising=False)
    monkeypatch.delenv("VIGIA_ADMIN_TOKEN", raising=False)
    get_settings.cache_clear()
    db_session.engine_for.cache_clear()
    return folder


def test_the_database_and_its_wal_files_are_private(fresh_data_dir: Path) -> None:
    upgrade()
    with get_engine().begin() as db:
        db.execute(text("CREATE TABLE probe (x integer)"))
        db.execute(text("INSERT INTO probe VALUES (1)"))
        names = {p.name: mode(p) for p in fresh_data_dir.iterdir()}
    assert mode(fresh_data_dir) == 0o700 and mode(fresh_data_dir.parent) == 0o700
    assert names == {"vigia.db": 0o600, "vigia.db-wal": 0o600, "vigia.db-shm": 0o600}


def test_an_existing_readable_database_is_tightened(fresh_data_dir: Path) -> None:
    fresh_data_dir.mkdir(parents=True)
    database = fresh_data_dir / "vigia.db"
    database.touch(mode=0o644)
    database.chmod(0o644)
    upgrade()
    assert mode(database) == 0o600


def test_the_generated_admin_token_is_private(fresh_data_dir: Path) -> None:
    token = get_settings().resolved_admin_token()
    path = fresh_data_dir / "admin_token"
    assert path.read_text() == token and mode(path) == 0o600
    assert mode(fresh_data_dir) == 0o700
