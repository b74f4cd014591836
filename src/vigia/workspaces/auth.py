"""API key authentication: who is calling, for which workspace, with which scopes."""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import lru_cache

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from vigia.config import get_settings
from vigia.db.session import session_scope
from vigia.errors import Forbidden, RateLimited, Unauthorized
from vigia.observability import context as observed
from vigia.workspaces.keys import hash_key
from vigia.workspaces.models import ApiKey
from vigia.workspaces.ratelimit import MemoryRateLimiter, get_rate_limiter, retry_after_header

SCOPES = ("chat", "decide", "guardrails:review")
MAX_KEY_CHARS = 256


@dataclass(frozen=True)
class KeyContext:
    """The authenticated key: its workspace, optional agent, environment and scopes."""

    key_id: str
    workspace_id: str
    agent_id: str | None
    env: str
    scopes: tuple[str, ...]
    rpm: int


def presented_key(request: Request) -> str | None:
    """The key from ``Authorization: Bearer`` or ``X-API-Key``."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    api_key = request.headers.get("x-api-key")
    return api_key.strip() if api_key else None


def load_key(session: Session, raw: str | None) -> KeyContext:
    """The live key for ``raw``; 401 when missing, unknown or revoked."""
    if not raw:
        raise Unauthorized("missing API key: send Authorization: Bearer sk-vigia-…")
    if len(raw) > MAX_KEY_CHARS:
        raise Unauthorized("invalid API key")
    keys = ApiKey.__table__.c
    row = (
        session.connection()
        .execute(
            select(
                keys.id,
                keys.workspace_id,
                keys.agent_id,
                keys.env,
                keys.scopes,
                keys.rpm,
                keys.revoked_at,
            ).where(keys.hash == hash_key(raw))
        )
        .first()
    )
    if row is None:
        raise Unauthorized("invalid API key")
    if row.revoked_at is not None:
        raise Unauthorized("this API key was revoked")
    return KeyContext(
        key_id=row.id,
        workspace_id=row.workspace_id,
        agent_id=row.agent_id,
        env=row.env,
        scopes=tuple(row.scopes),
        rpm=row.rpm,
    )


class KeyCache:
    """Recently authenticated keys, for ``ttl_s`` seconds (the gateway's hot path).

    A revocation in this process evicts the key at once; other replicas stop accepting it
    within ``ttl_s`` (``VIGIA_KEY_CACHE_TTL_S``, 0 disables the cache).
    """

    def __init__(self, ttl_s: float, max_entries: int = 10_000) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, KeyContext]] = {}
        self._lock = threading.Lock()

    def get(self, raw: str) -> KeyContext | None:
        entry = self._entries.get(raw)
        if entry is None or entry[0] < time.monotonic():
            return None
        return entry[1]

    def put(self, raw: str, key: KeyContext) -> None:
        if self.ttl_s <= 0:
            return
        with self._lock:
            if len(self._entries) >= self.max_entries:
                self._entries.clear()
            self._entries[raw] = (time.monotonic() + self.ttl_s, key)

    def evict(self, key_id: str) -> None:
        with self._lock:
            for raw in [r for r, (_, k) in self._entries.items() if k.key_id == key_id]:
                del self._entries[raw]


@lru_cache(maxsize=1)
def get_key_cache() -> KeyCache:
    return KeyCache(get_settings().key_cache_ttl_s)


def _lookup(raw: str | None) -> KeyContext:
    with session_scope() as session:
        key = load_key(session, raw)
    if raw is not None:
        get_key_cache().put(raw, key)
    return key


def _admit(key: KeyContext, scope: str, wait: float | None) -> KeyContext:
    if wait is not None:
        raise RateLimited(
            f"rate limit of {key.rpm} requests per minute exceeded",
            headers={"Retry-After": retry_after_header(wait)},
        )
    return key


def _check_scope(key: KeyContext, scope: str) -> None:
    if scope not in key.scopes:
        raise Forbidden(f"this API key lacks the '{scope}' scope")


def require_scope(scope: str) -> Callable[[Request], Awaitable[KeyContext]]:
    """A FastAPI dependency admitting keys with ``scope``.

    Async, so that a cached key with the in-process limiter costs no thread hop.
    """

    async def dependency(request: Request) -> KeyContext:
        raw = presented_key(request)
        key = get_key_cache().get(raw) if raw else None
        if key is None:
            key = await run_in_threadpool(_lookup, raw)
        _check_scope(key, scope)
        observed.bind(workspace=key.workspace_id, agent=key.agent_id)
        limiter = get_rate_limiter()
        bucket = f"key:{key.key_id}"
        if isinstance(limiter, MemoryRateLimiter):
            wait = limiter.acquire(bucket, key.rpm)
        else:
            wait = await run_in_threadpool(limiter.acquire, bucket, key.rpm)
        return _admit(key, scope, wait)

    return dependency
