"""Users of the worlds surface and their login sessions (argon2 hashes, hashed tokens)."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.db.base import utcnow
from vigia.errors import Conflict, Invalid, Unauthorized
from vigia.worlds import throttle
from vigia.worlds.models import WorldSession, WorldUser

COOKIE = "sherpa_session"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
_HASHER = PasswordHasher()
_DUMMY_HASH = _HASHER.hash("not-a-real-password")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def create_user(session: Session, name: str, password: str) -> WorldUser:
    """A new user; the password is stored as an argon2id hash."""
    if not USERNAME.match(name):
        raise Invalid(f"user name must match {USERNAME.pattern}")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(f"password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if session.scalar(select(WorldUser.id).where(WorldUser.name == name)) is not None:
        raise Conflict(f"user {name!r} already exists")
    user = WorldUser(name=name, password_hash=_HASHER.hash(password))
    session.add(user)
    session.flush()
    return user


def find_user(session: Session, name: str) -> WorldUser | None:
    return session.scalar(select(WorldUser).where(WorldUser.name == name))


def login(session: Session, name: str, password: str, address: str) -> tuple[WorldUser, str]:
    """Checks the credentials and opens a session; returns the user and the cookie token.

    ``address`` is the client's: failures are throttled per user name there and per address
    (``throttle``), 429 while locked.
    """
    throttle.check(name, address)
    user = find_user(session, name) if len(password) <= MAX_PASSWORD else None
    try:
        _HASHER.verify(user.password_hash if user else _DUMMY_HASH, password[:MAX_PASSWORD])
    except (VerificationError, InvalidHashError):
        user = None
    if user is None:
        throttle.failed(name, address)
        raise Unauthorized("invalid username or password")
    throttle.succeeded(name, address)
    if _HASHER.check_needs_rehash(user.password_hash):
        user.password_hash = _HASHER.hash(password)
    token = secrets.token_urlsafe(32)
    ttl = timedelta(hours=get_settings().session_ttl_hours)
    session.add(
        WorldSession(token_hash=_token_hash(token), user_id=user.id, expires_at=utcnow() + ttl)
    )
    session.execute(
        delete(WorldSession).where(
            WorldSession.user_id == user.id, WorldSession.expires_at < utcnow()
        )
    )
    session.flush()
    return user, token


def user_for_token(session: Session, token: str | None) -> WorldUser:
    """The logged-in user of a cookie token, or 401."""
    if not token or len(token) > 256:
        raise Unauthorized("not logged in")
    record = session.get(WorldSession, _token_hash(token))
    if record is None or _aware(record.expires_at) <= utcnow():
        raise Unauthorized("session expired or unknown; log in again")
    user = session.get(WorldUser, record.user_id)
    if user is None:
        raise Unauthorized("not logged in")
    return user


def logout(session: Session, token: str | None) -> None:
    """Ends the session of ``token`` (nothing happens for an unknown token)."""
    if token and len(token) <= 256:
        session.execute(delete(WorldSession).where(WorldSession.token_hash == _token_hash(token)))
