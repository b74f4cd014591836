"""Readiness: the database answers, Redis answers (when configured), migrations are at head."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from alembic.script import ScriptDirectory
from sqlalchemy import text

from vigia.config import get_settings
from vigia.db.migrate import alembic_config
from vigia.db.session import get_engine

OK = "ok"


@lru_cache(maxsize=1)
def expected_heads() -> frozenset[str]:
    """Every head revision of the packaged migrations."""
    return frozenset(ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads())


def _database() -> tuple[str, str]:
    """(database check, migrations check)."""
    try:
        with get_engine().connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:
        return f"unreachable ({type(error).__name__})", "unknown"
    try:
        with get_engine().connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version"))
            applied = frozenset(str(row[0]) for row in rows)
    except Exception:
        return OK, "not migrated"
    if applied == expected_heads():
        return OK, OK
    return OK, f"not at head (database {sorted(applied)}, code {sorted(expected_heads())})"


def _redis(url: str | None) -> str:
    if not url:
        return "not configured"
    try:
        import redis

        client: Any = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as error:
        return f"unreachable ({type(error).__name__})"
    return OK


def readiness() -> tuple[bool, dict[str, str]]:
    """Whether this replica may take traffic, and each check's result."""
    database, migrations = _database()
    checks = {
        "database": database,
        "migrations": migrations,
        "redis": _redis(get_settings().redis_url),
    }
    ready = all(v in (OK, "not configured") for v in checks.values())
    return ready, checks
