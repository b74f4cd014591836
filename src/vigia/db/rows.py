"""Row inserts for the hot paths: SQL rendered once per table, columns and dialect.

``insert_rows`` stores what ``connection.execute(insert(table), rows)`` stores (the columns'
own bind processing, scalar column defaults for the columns a row leaves out) but renders
the ``INSERT`` once and hands the driver the processed parameters
(``Connection.exec_driver_sql``), skipping the per-call statement cache lookup and
parameter compilation: an agent turn writes four tables, every turn. It runs in the
caller's transaction: a SQLAlchemy ``Connection`` (firing the engine's execute events like
any other statement) or the DBAPI transaction of ``vigia.db.driver_write``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from sqlalchemy import Connection, Table, insert
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session


class RowSink(Protocol):
    """Where rendered rows go: a ``Connection``, or a ``DriverWrite``."""

    @property
    def dialect(self) -> Dialect: ...

    def exec_driver_sql(self, statement: str, parameters: Any = None, /) -> Any: ...


def sink_of(target: Session | RowSink) -> RowSink:
    """The sink of a transaction: a session's connection, or ``target`` itself."""
    if isinstance(target, Session):
        connection: Connection = target.connection()
        return connection
    return target


@dataclass(frozen=True)
class _Rendered:
    """An ``INSERT`` for one set of given columns, with how to pass a row to the driver."""

    sql: str
    keys: tuple[str, ...]
    """The parameters in the driver's order (positional styles) or by name."""
    positional: bool
    processors: tuple[Callable[[Any], Any] | None, ...]
    defaults: Mapping[str, Any]
    """Scalar defaults of the columns the rows leave out."""

    def parameters(self, row: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        values = [row[k] if k in row else self.defaults[k] for k in self.keys]
        processed = [v if p is None else p(v) for p, v in zip(self.processors, values, strict=True)]
        if self.positional:
            return tuple(processed)
        return dict(zip(self.keys, processed, strict=True))


@lru_cache(maxsize=64)
def _rendered(table: Table, given: tuple[str, ...], dialect: Dialect) -> _Rendered:
    compiled = insert(table).compile(dialect=dialect, column_keys=list(given))
    keys = tuple(compiled.positiontup or compiled.binds)
    defaults: dict[str, Any] = {}
    for column in compiled.insert_prefetch:
        default = column.default
        if default is None or not default.is_scalar:
            raise ValueError(f"{table.name}.{column.key}: give it (no scalar default)")
        defaults[column.key] = default.arg  # type: ignore[attr-defined]
    processors = tuple(table.c[k].type.dialect_impl(dialect).bind_processor(dialect) for k in keys)
    return _Rendered(compiled.string, keys, bool(compiled.positional), processors, defaults)


def insert_rows(connection: RowSink, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    """Inserts ``rows`` into ``table``; every row names the same columns (the first row's)."""
    if not rows:
        return
    rendered = _rendered(table, tuple(rows[0]), connection.dialect)
    parameters = [rendered.parameters(row) for row in rows]
    connection.exec_driver_sql(rendered.sql, parameters if len(parameters) > 1 else parameters[0])
