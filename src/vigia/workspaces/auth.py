"""API key authentication: who is calling, for which workspace, with which scopes."""

from __future__ import annotations

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
from vigia.kit.cache import LRUCache
from vigia.observability import context as observed
from vigia.workspaces.keys import hash_key
from vigia.workspaces.models import ApiKey
from vigia.workspaces.ratelimit import MemoryRateLimiter, RateLimiter, retry_after_header
from vigia.workspaces.revocation import get_revocations

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
    """Recently authenticated keys (the gateway's hot path), each tagged with the revocation
    count read before it was looked up.

    An entry serves requests for ``ttl_s`` seconds (``VIGIA_KEY_CACHE_TTL_S``, 0 disables
    the cache) and only while that count has not moved: any revocation, on any replica,
    sends every key back to the database once.
    """

    def __init__(self, ttl_s: float, max_entries: int = 10_000) -> None:
        self.ttl_s = ttl_s
        self._entries: LRUCache[str, tuple[int, KeyContext]] = LRUCache(max_entries, ttl_s=ttl_s)

    def get(self, raw: str, revocations: int) -> KeyContext | None:
        entry = self._entries.get(raw)
        if entry is None or entry[0] != revocations:
            return None
        return entry[1]

    def workspace_of(self, raw: str) -> str | None:
        """The workspace of a cached key, revoked or not (it admits nothing: it only says
        whose share a request counts against)."""
        entry = self._entries.get(raw)
        return entry[1].workspace_id if entry is not None else None

    def put(self, raw: str, key: KeyContext, revocations: int) -> None:
        if self.ttl_s > 0:
            self._entries.put(raw, (revocations, key))


@lru_cache(maxsize=1)
def get_key_cache() -> KeyCache:
    return KeyCache(get_settings().key_cache_ttl_s)


def authenticate(raw: str | None) -> KeyContext:
    """The live key for ``raw``: cached, or looked up (and cached) when it is not."""
    revocations = get_revocations().read()  # before the lookup: a revocation during it moves it
    cache = get_key_cache()
    key = cache.get(raw, revocations) if raw else None
    if key is None:
        with session_scope() as session:
            key = load_key(session, raw)
        if raw is not None:
            cache.put(raw, key, revocations)
    return key


def cached_workspace(raw: str) -> str | None:
    """The workspace of ``raw`` when the key cache holds it (no lookup), else None: how
    write admission counts a request for its workspace (``vigia.http.write_tenant``)."""
    return get_key_cache().workspace_of(raw)


def _check_scope(key: KeyContext, scopes: tuple[str, ...]) -> None:
    if not any(scope in key.scopes for scope in scopes):
        named = " or ".join(f"'{scope}'" for scope in scopes)
        raise Forbidden(f"this API key lacks the {named} scope")


def _admit(key: KeyContext, wait: float | None) -> KeyContext:
    if wait is not None:
        raise RateLimited(
            f"rate limit of {key.rpm} requests per minute exceeded",
            headers={"Retry-After": retry_after_header(wait)},
        )
    return key


def _authorize(raw: str | None, scopes: tuple[str, ...], limiter: RateLimiter) -> KeyContext:
    """Authentication, scope and rate limit in one go (one thread hop when Redis is used)."""
    key = authenticate(raw)
    _check_scope(key, scopes)
    return _admit(key, limiter.acquire(f"key:{key.key_id}", key.rpm))


def require_scope(scope: str, *others: str) -> Callable[[Request], Awaitable[KeyContext]]:
    """A FastAPI dependency admitting keys with ``scope`` (or any of ``others``).

    Async, so that a cached key with the in-process counter and limiter costs no thread hop.
    """

    scopes = (scope, *others)

    async def dependency(request: Request) -> KeyContext:
        raw = presented_key(request)
        limiter: RateLimiter = request.app.state.rate_limiter
        revocations = get_revocations()
        if not (revocations.in_process and isinstance(limiter, MemoryRateLimiter)):
            admitted = await run_in_threadpool(_authorize, raw, scopes, limiter)
            observed.bind(workspace=admitted.workspace_id, agent=admitted.agent_id)
            return admitted
        cached = get_key_cache().get(raw, revocations.read()) if raw else None
        key = cached if cached is not None else await run_in_threadpool(authenticate, raw)
        _check_scope(key, scopes)
        observed.bind(workspace=key.workspace_id, agent=key.agent_id)
        return _admit(key, limiter.acquire(f"key:{key.key_id}", key.rpm))

    return dependency
