"""Engines and sessions; one transaction per request, committed at the boundary."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

from vigia.config import get_settings
from vigia.observability.metrics import instrument_pool
from vigia.private_files import private_dir, private_file, tighten


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _private_sqlite_file(url: str) -> None:
    """Creates the SQLite file 0600 in a 0700 folder before SQLite does (with 0644).

    SQLite gives its ``-wal`` and ``-shm`` files the database file's mode.
    """
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    private_dir(path.parent)
    private_file(path)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            tighten(companion)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys, a busy timeout and mode 0600."""
    if url.startswith("sqlite"):
        _private_sqlite_file(url)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=20,
            max_overflow=20,
        )
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
        engine = create_engine(url, pool_size=20, max_overflow=20, pool_pre_ping=True)
    instrument_pool(engine)
    return engine


@lru_cache(maxsize=4)
def engine_for(url: str) -> Engine:
    """The process-wide engine for a URL."""
    return make_engine(url)


def get_engine() -> Engine:
    settings = get_settings()
    if settings.sqlalchemy_url.startswith("sqlite"):
        private_dir(settings.data_dir)
    return engine_for(settings.sqlalchemy_url)


@lru_cache(maxsize=4)
def _factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def session_scope() -> Iterator[Session]:
    """A unit of work: commit on success, roll back on any error."""
    session = _factory(get_engine())()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def get_db() -> Iterator[Session]:
    """FastAPI dependency: the request's session, committed when the handler returns."""
    with session_scope() as session:
        yield session
