"""Agent rows and workspace limits as turns read them, served from memory while unchanged.

Every turn reads its agent's row, its workspace's budget settings and hosts, and the key its
model uses: rows that change only when someone edits an agent, a workspace or a secret. Each
cached entry is tagged with the *settings generation* read before its lookup, and serves only
while the generation has not moved. Any committed change to an agent, a workspace or a
workspace secret made through the ORM (a flush, or an ORM ``update``/``delete`` statement)
advances the generation once the session commits, so the next turn reads them again. The
generation lives in Redis when ``VIGIA_REDIS_URL`` is set (shared by the replicas, one
``GET`` per lookup), otherwise in the process. Entries also expire after
``VIGIA_SETTINGS_CACHE_TTL_S`` (2 s; 0 disables the cache): a row written straight into the
database, past the ORM, is read again within that time.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache
from itertools import chain
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session

from vigia.config import get_settings
from vigia.kit.cache import LRUCache
from vigia.workspaces.revocation import LocalRevocations, RedisRevocations, Revocations

REDIS_KEY = "vigia:settings:generation"
WATCHED_TABLES = frozenset({"agents", "workspaces", "workspace_secrets"})
_PENDING = "vigia.settings_changed"

V = TypeVar("V")


class SettingsCache:
    """Values loaded from watched rows, each served while the generation it was read under
    has not moved, for ``ttl_s`` seconds at most."""

    def __init__(self, generation: Revocations, ttl_s: float, max_entries: int = 10_000) -> None:
        self.ttl_s = ttl_s
        self._generation = generation
        self._entries: LRUCache[Hashable, tuple[int, Any]] = LRUCache(max_entries, ttl_s=ttl_s)

    def lookup(self, key: Hashable, load: Callable[[], V | None]) -> V | None:
        """The cached value of ``key``, or ``load()`` (cached unless None)."""
        if self.ttl_s <= 0:
            return load()
        tag = self._generation.read()  # before the load: a change during it moves it
        entry = self._entries.get(key)
        if entry is not None and entry[0] == tag:
            value: V = entry[1]
            return value
        loaded = load()
        if loaded is not None:
            self._entries.put(key, (tag, loaded))
        return loaded

    def advance(self) -> None:
        """Records a change: every entry is loaded again."""
        self._generation.advance()


@lru_cache(maxsize=4)
def _cache_for(database: str, redis_url: str | None, ttl_s: float) -> SettingsCache:
    generation = RedisRevocations(redis_url, REDIS_KEY) if redis_url else LocalRevocations()
    return SettingsCache(generation, ttl_s)


def get_settings_cache() -> SettingsCache:
    """The process's cache for the configured database (and Redis, when set)."""
    settings = get_settings()
    return _cache_for(settings.sqlalchemy_url, settings.redis_url, settings.settings_cache_ttl_s)


def _advance(session: Session) -> None:
    session.info.pop(_PENDING, None)
    get_settings_cache().advance()


def _changed(session: Session) -> None:
    """Advances the generation once ``session`` commits (never before: a replica that looked
    the row up in between must already read the change)."""
    if not session.info.get(_PENDING):
        session.info[_PENDING] = True
        event.listen(session, "after_commit", _advance, once=True)


@event.listens_for(Session, "after_flush")
def _note_flush(session: Session, _context: Any) -> None:
    touched = chain(session.new, session.dirty, session.deleted)
    if any(getattr(row, "__tablename__", None) in WATCHED_TABLES for row in touched):
        _changed(session)


@event.listens_for(Session, "do_orm_execute")
def _note_statement(state: ORMExecuteState) -> None:
    if not (state.is_update or state.is_delete or state.is_insert):
        return
    mapper = state.bind_mapper
    if mapper is not None and getattr(mapper.local_table, "name", None) in WATCHED_TABLES:
        _changed(state.session)
