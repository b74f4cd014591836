"""API key authentication: who is calling, for which workspace, with which scopes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from fastapi import Depends, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.db.session import session_scope
from vigia.errors import Forbidden, RateLimited, Unauthorized
from vigia.workspaces.keys import hash_key
from vigia.workspaces.models import ApiKey
from vigia.workspaces.ratelimit import get_rate_limiter, retry_after_header

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


def authenticate(request: Request, scope: str) -> KeyContext:
    """Checks key, scope and the key's rate; raises 401, 403 or 429."""
    with session_scope() as session:
        key = load_key(session, presented_key(request))
    if scope not in key.scopes:
        raise Forbidden(f"this API key lacks the '{scope}' scope")
    wait = get_rate_limiter().acquire(f"key:{key.key_id}", key.rpm)
    if wait is not None:
        raise RateLimited(
            f"rate limit of {key.rpm} requests per minute exceeded",
            headers={"Retry-After": retry_after_header(wait)},
        )
    return key


def require_scope(scope: str) -> Callable[[Request], KeyContext]:
    """A FastAPI dependency admitting keys with ``scope``."""

    def dependency(request: Request) -> KeyContext:
        return authenticate(request, scope)

    return dependency


def key_dependency(scope: str) -> object:
    return Depends(require_scope(scope))
