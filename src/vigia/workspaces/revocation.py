"""Key revocations as a counter every replica reads on each request.

A cached key is trusted only while the counter has not moved since the key was cached, so a
revocation takes effect on the next request everywhere: the revoking request commits, then
advances the counter, then answers. Nothing is revoked → the counter stays put and cached keys
cost no database query. The counter lives in Redis when ``VIGIA_REDIS_URL`` is set (shared by
the replicas), otherwise in the process.
"""

from __future__ import annotations

import secrets
import threading
from functools import lru_cache
from typing import Protocol

from sqlalchemy import event
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.workspaces.ratelimit import redis_client

REDIS_KEY = "vigia:keys:revocations"


class Revocations(Protocol):
    in_process: bool
    """True when ``read`` does no I/O (callers may skip the thread hop)."""

    def read(self) -> int:
        """The current count; it only moves when a key is revoked."""
        ...

    def advance(self) -> None:
        """Records a revocation: keys cached before it are looked up again."""
        ...


class LocalRevocations:
    """The counter for one process (exact when one process serves the API)."""

    in_process = True

    def __init__(self) -> None:
        self._count = 0
        self._lock = threading.Lock()

    def read(self) -> int:
        return self._count

    def advance(self) -> None:
        with self._lock:
            self._count += 1


class RedisRevocations:
    """The counter shared by replicas: one ``GET`` per request, one ``INCR`` per revocation.

    A missing counter (a fresh or restarted Redis) starts at a random value, so it never
    comes back to a count an old cache entry was tagged with.
    """

    in_process = False

    def __init__(self, url: str, key: str = REDIS_KEY) -> None:
        self._client = redis_client(url)
        self._key = key  # another counter of the same kind (vigia.workspaces.settings_cache)

    def read(self) -> int:
        value = self._client.get(self._key)
        if value is None:
            self._client.set(self._key, secrets.randbits(62), nx=True)
            value = self._client.get(self._key)
        return int(value)

    def advance(self) -> None:
        self.read()  # a missing counter starts at a random value, never at 1
        self._client.incr(self._key)


@lru_cache(maxsize=1)
def get_revocations() -> Revocations:
    """Redis when ``VIGIA_REDIS_URL`` is set, otherwise the in-process counter."""
    url = get_settings().redis_url
    return RedisRevocations(url) if url else LocalRevocations()


def advance_after_commit(session: Session) -> None:
    """Advances the counter once ``session`` commits (never before: a replica looking the key
    up again in between must already read it revoked)."""
    event.listen(session, "after_commit", _advance, once=True)


def _advance(_session: Session) -> None:
    get_revocations().advance()
