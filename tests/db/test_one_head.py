"""The migrations form one line: a single head, which a migrated database stands at."""

from __future__ import annotations

from alembic.script import ScriptDirectory
from sqlalchemy import text

from vigia.db.migrate import alembic_config
from vigia.db.session import get_engine


def _heads() -> list[str]:
    return list(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def test_the_migrations_have_exactly_one_head() -> None:
    heads = _heads()
    assert len(heads) == 1, f"branched migrations: {heads}; merge them or chain the new one"


def test_a_migrated_database_stands_at_that_head() -> None:
    with get_engine().connect() as connection:
        applied = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
        assert list(applied) == _heads()
