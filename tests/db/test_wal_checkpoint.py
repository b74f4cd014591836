"""SQLite checkpoints run off the request path: a thread copies the writer's commits into
the database file soon after them, ends when writes stop, and never creates a database."""

from __future__ import annotations

import shutil
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import PG_URL
from vigia.db.session import get_writer_engine, write_scope
from vigia.db.wal import AUTOCHECKPOINT_PAGES, THREAD_NAME, Checkpointer, checkpoint_once
from vigia.workspaces.service import create_workspace


def _checkpointers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == THREAD_NAME]


def _wait(condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def _in_the_database_file(data_dir: Path, tmp_path: Path, name: str) -> bool:
    """Whether the row is in ``vigia.db`` itself (a copy without the WAL reads only that)."""
    copy = tmp_path / "main-file-only.db"
    shutil.copy(data_dir / "vigia.db", copy)
    with sqlite3.connect(copy) as db:
        found = db.execute("SELECT count(*) FROM workspaces WHERE name = ?", (name,)).fetchone()
    return bool(found[0])


@pytest.mark.skipif(PG_URL is not None, reason="the app's database is PostgreSQL in this pass")
def test_a_commit_reaches_the_database_file_without_checkpointing_itself(
    data_dir: Path, tmp_path: Path
) -> None:
    with get_writer_engine().connect() as connection:
        pages = connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
    assert pages == AUTOCHECKPOINT_PAGES  # the writer's commits leave it to the thread
    with write_scope() as session:
        create_workspace(session, "wal")
    assert _wait(lambda: _in_the_database_file(data_dir, tmp_path, "wal"))
    assert _wait(lambda: not _checkpointers()), "the thread ends once writes stop"


def test_the_checkpointer_never_creates_a_database(tmp_path: Path) -> None:
    missing = tmp_path / "gone" / "vigia.db"
    checkpointer = Checkpointer(missing, interval_s=0.01)
    checkpointer.wrote()
    assert _wait(lambda: not _checkpointers())
    assert not missing.exists() and not missing.parent.exists()


def test_a_stopped_checkpointer_ends_its_thread(tmp_path: Path) -> None:
    path = tmp_path / "idle.db"
    sqlite3.connect(path).close()
    checkpointer = Checkpointer(path, interval_s=60)
    checkpointer.wrote()
    assert _checkpointers()
    checkpointer.stop()
    assert _wait(lambda: not _checkpointers(), timeout_s=5)


class _Refusing:
    """A connection whose checkpoint fails with ``message``."""

    def __init__(self, message: str) -> None:
        self.message = message

    def execute(self, _sql: str) -> None:
        raise sqlite3.OperationalError(self.message)


def test_a_checkpoint_running_elsewhere_skips_the_round_and_other_errors_stop_it() -> None:
    checkpoint_once(_Refusing("database is locked"))  # type: ignore[arg-type]  # another process's
    with pytest.raises(sqlite3.OperationalError):
        checkpoint_once(_Refusing("disk I/O error"))  # type: ignore[arg-type]
