"""Users and their login sessions: argon2id password hashes, hashed session tokens.

One store for every surface people log in to (the console and the worlds surface). A
session ends ``session_ttl_hours`` after login, or earlier once unused for
``session_idle_minutes``.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.db.base import utcnow
from vigia.errors import Conflict, Invalid, Unauthorized
from vigia.users import throttle
from vigia.users.models import User, UserSession

__all__ = [
    "COOKIE",
    "create_user",
    "find_user",
    "get_user",
    "login",
    "logout",
    "set_disabled",
    "set_password",
    "user_for_token",
]

COOKIE = "sherpa_session"
USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
MAX_TOKEN = 256
SEEN_EVERY = timedelta(minutes=1)
"""How stale ``last_seen_at`` may get before a request writes it again."""
_HASHER = PasswordHasher()
_DUMMY_HASH = _HASHER.hash("not-a-real-password")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _checked_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(f"password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def create_user(session: Session, name: str, password: str) -> User:
    """A new user; the password is stored as an argon2id hash."""
    if not USERNAME.match(name):
        raise Invalid(f"user name must match {USERNAME.pattern}")
    _checked_password(password)
    if session.scalar(select(User.id).where(User.name == name)) is not None:
        raise Conflict(f"user {name!r} already exists")
    user = User(name=name, password_hash=_HASHER.hash(password))
    session.add(user)
    session.flush()
    return user


def set_password(session: Session, user: User, password: str) -> None:
    """Replaces the password and ends every session of the user."""
    user.password_hash = _HASHER.hash(_checked_password(password))
    session.execute(delete(UserSession).where(UserSession.user_id == user.id))
    session.flush()


def set_disabled(session: Session, user: User, disabled: bool) -> None:
    """Disables the account (it cannot log in; every session of it ends) or enables it
    again; its roles stay as they were."""
    if disabled and user.disabled_at is None:
        user.disabled_at = utcnow()
        session.execute(delete(UserSession).where(UserSession.user_id == user.id))
    elif not disabled:
        user.disabled_at = None
    session.flush()


def find_user(session: Session, name: str) -> User | None:
    return session.scalar(select(User).where(User.name == name))


def get_user(session: Session, user_id: str) -> User | None:
    return session.get(User, user_id)


def names_of(session: Session, user_ids: set[str]) -> dict[str, str]:
    """The names of these users by id, in one query (unknown ids are left out)."""
    if not user_ids:
        return {}
    rows = session.execute(select(User.id, User.name).where(User.id.in_(user_ids)))
    return {row.id: row.name for row in rows}


def name_of(session: Session, user_id: str | None) -> str | None:
    """The name of one user (None without an id, or for an unknown one)."""
    return names_of(session, {user_id}).get(user_id) if user_id else None


def login(session: Session, name: str, password: str, address: str) -> tuple[User, str]:
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
    if user is None or user.disabled_at is not None:
        throttle.failed(name, address)
        raise Unauthorized("invalid username or password")
    throttle.succeeded(name, address)
    if _HASHER.check_needs_rehash(user.password_hash):
        user.password_hash = _HASHER.hash(password)
    token = secrets.token_urlsafe(32)
    now = utcnow()
    ttl = timedelta(hours=get_settings().session_ttl_hours)
    session.add(
        UserSession(
            token_hash=_token_hash(token), user_id=user.id, expires_at=now + ttl, last_seen_at=now
        )
    )
    session.execute(
        delete(UserSession).where(
            UserSession.user_id == user.id,
            or_(UserSession.expires_at < now, UserSession.last_seen_at < now - _idle()),
        )
    )
    session.flush()
    return user, token


def _idle() -> timedelta:
    return timedelta(minutes=get_settings().session_idle_minutes)


def user_for_token(session: Session, token: str | None) -> User:
    """The logged-in user of a cookie token, or 401; marks the session as used."""
    if not token or len(token) > MAX_TOKEN:
        raise Unauthorized("not logged in")
    record = session.get(UserSession, _token_hash(token))
    now = utcnow()
    if record is None or _aware(record.expires_at) <= now:
        raise Unauthorized("session expired or unknown; log in again")
    seen = _aware(record.last_seen_at or record.created_at)
    if seen + _idle() <= now:
        raise Unauthorized("session expired or unknown; log in again")
    user = session.get(User, record.user_id)
    if user is None or user.disabled_at is not None:
        raise Unauthorized("not logged in")
    if now - seen >= SEEN_EVERY:
        record.last_seen_at = now
        session.flush()
    return user


def logout(session: Session, token: str | None) -> None:
    """Ends the session of ``token`` (nothing happens for an unknown token)."""
    if token and len(token) <= MAX_TOKEN:
        session.execute(delete(UserSession).where(UserSession.token_hash == _token_hash(token)))
