"""A write transaction on the writer engine's DBAPI connection itself, for rows rendered
once (``vigia.db.rows``): no ``Session``, no ``Connection``, no execution context per
statement. An agent turn writes its four tables this way on every turn; measured on the
gateway benchmark's turn, SQLAlchemy's machinery around the same statements cost about
three times SQLite's own work (docs/benchmarks.md).

It keeps what ``write_scope`` guarantees: ``BEGIN IMMEDIATE`` on SQLite (the writer's one
lock from the first statement), commit on success and rollback on any error, the WAL
checkpointer woken after a commit, and the same refusals: no connection or no lock in
time is ``Overloaded`` (503 with Retry-After). A driver error reaches the caller as
SQLAlchemy's own exception type (``IntegrityError``…), parameters hidden, as from any
other statement.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from vigia.db.session import busy, committed, get_writer_engine, overloaded

Parameters = Sequence[Any] | Mapping[str, Any]


class DriverWrite:
    """The open transaction: ``exec_driver_sql`` as on a SQLAlchemy ``Connection``."""

    def __init__(self, cursor: Any, engine: Engine) -> None:
        self._cursor = cursor
        self._engine = engine
        self.dialect: Dialect = engine.dialect

    def exec_driver_sql(
        self, statement: str, parameters: Parameters | list[Parameters] | None = None
    ) -> None:
        """Runs ``statement`` once, or once per row for a list of parameter rows."""
        try:
            if isinstance(parameters, list):
                self._cursor.executemany(statement, parameters)
            else:
                self._cursor.execute(statement, parameters or ())
        except self.dialect.loaded_dbapi.Error as error:
            raise _wrapped(statement, error, self.dialect) from error


def _wrapped(statement: str, error: Exception, dialect: Dialect) -> DBAPIError:
    wrapped = DBAPIError.instance(
        statement,
        None,
        error,
        dialect.loaded_dbapi.Error,
        hide_parameters=True,
        dialect=dialect,
    )
    assert isinstance(wrapped, DBAPIError)
    return wrapped


@contextmanager
def driver_write() -> Iterator[DriverWrite]:
    """A short write transaction on the writer engine's DBAPI connection."""
    engine = get_writer_engine()
    sqlite = engine.dialect.name == "sqlite"
    try:
        connection = engine.raw_connection()
    except PoolTimeout as error:
        raise overloaded() from error
    cursor = connection.cursor()
    try:
        write = DriverWrite(cursor, engine)
        if sqlite:  # the writer's connections leave BEGIN to their owner (vigia.db.session)
            write.exec_driver_sql("BEGIN IMMEDIATE")
        yield write
        if sqlite:
            write.exec_driver_sql("COMMIT")
        else:
            connection.commit()
    except OperationalError as error:
        _roll_back(connection, sqlite)
        if busy(error):
            raise overloaded() from error
        raise
    except BaseException:
        _roll_back(connection, sqlite)
        raise
    finally:
        cursor.close()
        connection.close()  # back to the pool
    committed(engine)


def _roll_back(connection: Any, sqlite: bool) -> None:
    if not sqlite:
        connection.rollback()
    elif connection.in_transaction:
        connection.execute("ROLLBACK")
