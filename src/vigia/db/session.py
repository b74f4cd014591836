"""Engines and sessions: a general engine for reads and small writes, a writer engine for
the short write transactions of the hot paths (``write_scope``).

On SQLite both open the same WAL file. The general engine keeps pysqlite's own transaction
handling (BEGIN only before the first INSERT/UPDATE/DELETE, so reads never take a lock). The
writer engine takes over BEGIN (SQLAlchemy's documented pysqlite recipe) and emits
``BEGIN IMMEDIATE``: a write transaction holds the file's one write lock from its first
statement, so it never fails half-way on a lock upgrade; it has one connection, so writers
of this process queue on the pool instead of polling the lock. Its commits leave the WAL
checkpoints to a thread of their own (``vigia.db.wal``).
"""

from __future__ import annotations

import sqlite3
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from vigia.config import get_settings
from vigia.db.wal import AUTOCHECKPOINT_PAGES, Checkpointer
from vigia.errors import Overloaded
from vigia.kit.private_files import private_dir, private_file, tighten
from vigia.observability.metrics import BUSY_REFUSALS, instrument_pool

BUSY_TIMEOUT_MS = 30_000
WRITER_POOL_TIMEOUT_S = 30.0
RETRY_AFTER_S = "2"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")  # vigia.db.wal
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


def _sqlite_writer_connect(dbapi_connection: Any, record: Any) -> None:
    _sqlite_pragmas(dbapi_connection, record)
    dbapi_connection.isolation_level = None  # pysqlite emits no BEGIN of its own


def _begin_immediate(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _driver_url(url: str) -> str:
    if url.startswith("postgresql://"):
        return "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return url


def _sqlite_engine(url: str, **pool: Any) -> Engine:
    """An engine on the SQLite file (created private first), shared across threads, with the
    busy timeout; ``pool`` sizes its connection pool."""
    _private_sqlite_file(url)
    return create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
        hide_parameters=True,  # an error's message and traceback never carry the contents
        **pool,
    )


def make_engine(url: str) -> Engine:
    """The general engine for ``url``; SQLite gets WAL, foreign keys, a busy timeout and mode
    0600."""
    if url.startswith("sqlite"):
        engine = _sqlite_engine(url, pool_size=20, max_overflow=20)
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(
            _driver_url(url),
            pool_size=20,
            max_overflow=20,
            pool_pre_ping=True,
            hide_parameters=True,  # an error's message and traceback never carry the contents
        )
    instrument_pool(engine)
    return engine


def make_writer_engine(url: str, connections: int) -> Engine:
    """The writer engine: ``BEGIN IMMEDIATE`` and one connection on SQLite, else a pool of
    ``connections`` (the write admission's size, so admitted writers never wait for one)."""
    if url.startswith("sqlite"):
        engine = _sqlite_engine(
            url, pool_size=1, max_overflow=0, pool_timeout=WRITER_POOL_TIMEOUT_S
        )
        event.listen(engine, "connect", _sqlite_writer_connect)
        event.listen(engine, "begin", _begin_immediate)
        _checkpoint_off_the_request_path(engine, url)
    else:
        engine = create_engine(
            _driver_url(url),
            pool_size=connections,
            max_overflow=connections,
            pool_timeout=WRITER_POOL_TIMEOUT_S,
            pool_pre_ping=True,
            hide_parameters=True,
        )
    instrument_pool(engine)
    return engine


def _checkpoint_off_the_request_path(engine: Engine, url: str) -> None:
    """The writer's commits wake a ``Checkpointer`` (``vigia.db.wal``) for its file."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    checkpointer = Checkpointer(Path(database))
    event.listen(engine, "commit", lambda _connection: checkpointer.wrote())
    _CHECKPOINTERS[engine] = checkpointer
    weakref.finalize(engine, checkpointer.stop)


_CHECKPOINTERS: weakref.WeakKeyDictionary[Engine, Checkpointer] = weakref.WeakKeyDictionary()


def committed(engine: Engine) -> None:
    """A commit made on ``engine``'s DBAPI connection itself (``vigia.db.driver_write``),
    which fires no engine event: wakes its checkpointer as the engine's commits do."""
    checkpointer = _CHECKPOINTERS.get(engine)
    if checkpointer is not None:
        checkpointer.wrote()


@lru_cache(maxsize=4)
def engine_for(url: str) -> Engine:
    """The process-wide general engine for a URL."""
    return make_engine(url)


@lru_cache(maxsize=4)
def writer_engine_for(url: str, connections: int) -> Engine:
    """The process-wide writer engine for a URL."""
    return make_writer_engine(url, connections)


@lru_cache(maxsize=8)
def _private_data_dir(path: Path) -> None:
    """Creates the data dir 0700 once per process (not on every session)."""
    private_dir(path)


def _url() -> str:
    settings = get_settings()
    if settings.sqlalchemy_url.startswith("sqlite"):
        _private_data_dir(settings.data_dir)
    return settings.sqlalchemy_url


def get_engine() -> Engine:
    return engine_for(_url())


def get_writer_engine() -> Engine:
    return writer_engine_for(_url(), get_settings().write_concurrency)


@lru_cache(maxsize=8)
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


def busy(error: OperationalError) -> bool:
    """SQLite's lock still held when the busy timeout ran out."""
    orig = error.orig
    return isinstance(orig, sqlite3.OperationalError) and (
        "locked" in str(orig) or "busy" in str(orig)
    )


@contextmanager
def write_scope() -> Iterator[Session]:
    """A short write transaction on the writer engine: commit on success, roll back on error.

    Keep CPU work (embeddings, checks, rendering) out of it: on SQLite it holds the only
    write lock. A writer that cannot get a connection or the lock in time is told to retry
    (``Overloaded``: 503 with Retry-After), never a 500.
    """
    session = _factory(get_writer_engine())()
    try:
        yield session
        session.commit()
    except PoolTimeout as error:
        session.rollback()
        raise overloaded() from error
    except OperationalError as error:
        session.rollback()
        if busy(error):
            raise overloaded() from error
        raise
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def overloaded() -> Overloaded:
    """The writer's 503: no connection or no write lock came in time."""
    BUSY_REFUSALS.labels("writer busy").inc()
    return Overloaded(
        "the server is busy writing; retry shortly", headers={"Retry-After": RETRY_AFTER_S}
    )


def get_db() -> Iterator[Session]:
    """FastAPI dependency: the request's session, committed when the handler returns."""
    with session_scope() as session:
        yield session
