"""Alembic environment: runs migrations on the engine Vigia would use."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from vigia.db.base import Base
from vigia.db.registry import __all__ as _models  # noqa: F401  (fills the metadata)
from vigia.db.session import make_engine

target_metadata = Base.metadata


def run_migrations_online() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = make_engine(url)
    with engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            # Batch migrations rebuild a table by copying it and dropping the old one; with
            # foreign keys on, that drop cascades into every row that references it. The
            # pragma only takes effect outside a transaction, hence before the migrations'.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        if connection.dialect.name == "postgresql":
            # Replicas starting together must not migrate twice.
            connection.execute(text("SELECT pg_advisory_xact_lock(727001)"))
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
        connection.commit()
        if connection.dialect.name == "sqlite":
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"migrations left rows without their parent: {broken[:5]}")
    engine.dispose()


run_migrations_online()
