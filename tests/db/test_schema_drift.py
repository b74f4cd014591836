"""The ORM models and the migrations agree: Alembic's ``compare_metadata`` on a migrated
database finds nothing, on SQLite and on PostgreSQL (run under ``scripts/with-postgres``).

Ignored, because migrations create them as raw SQL that no model describes: the SQLite
FTS5 search tables (``search_fts``, its ``fts5vocab`` view and FTS5's shadow tables) and the
PostgreSQL search tables (``search_terms``, ``search_totals``, ``search_vocabulary``,
``search_postings``). Types are compared as Alembic does, by declared type: a FLOAT column
under a ``Double`` model is drift even though SQLite stores both as REAL. Server defaults are
not compared: the models set their defaults in Python.
"""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Column, Index, MetaData, String
from sqlalchemy.engine import Connection

from vigia.db.base import NAMING, Base
from vigia.db.registry import __all__ as _models  # noqa: F401  (fills the metadata)
from vigia.db.session import get_engine

FTS5_SHADOWS = ("data", "idx", "content", "docsize", "config")
RAW_SQL_TABLES = frozenset(
    {"search_fts", "search_fts_vocab"}
    | {f"search_fts_{shadow}" for shadow in FTS5_SHADOWS}
    | {"search_terms", "search_totals", "search_vocabulary", "search_postings"}
)


def _modelled(name: str | None, type_: str, parent_names: Any) -> bool:
    """Alembic's ``include_name`` hook: leave out the raw-SQL search tables."""
    return not (type_ == "table" and name in RAW_SQL_TABLES)


def drift(connection: Connection, metadata: MetaData) -> list[Any]:
    """Every difference between the database behind ``connection`` and ``metadata``."""
    context = MigrationContext.configure(
        connection, opts={"compare_type": True, "include_name": _modelled}
    )
    return list(compare_metadata(context, metadata))


def _copy_of_the_models() -> MetaData:
    copy = MetaData(naming_convention=NAMING)
    for table in Base.metadata.sorted_tables:
        table.to_metadata(copy)
    return copy


def test_the_migrated_database_matches_the_models() -> None:
    with get_engine().connect() as connection:
        assert drift(connection, Base.metadata) == []


def test_no_model_table_hides_behind_the_ignored_names() -> None:
    assert RAW_SQL_TABLES.isdisjoint(Base.metadata.tables)


def test_a_column_only_in_a_model_is_drift() -> None:
    models = _copy_of_the_models()
    models.tables["workspaces"].append_column(Column("nickname", String(40), nullable=True))
    with get_engine().connect() as connection:
        found = drift(connection, models)
    assert [(d[0], d[2], d[3].name) for d in found] == [("add_column", "workspaces", "nickname")]


def test_an_index_only_in_a_model_is_drift() -> None:
    models = _copy_of_the_models()
    runs = models.tables["runs"]
    Index("ix_runs_model_only", runs.c.status)
    with get_engine().connect() as connection:
        found = drift(connection, models)
    assert [(d[0], d[1].name) for d in found] == [("add_index", "ix_runs_model_only")]
