"""Workspace secrets: named values (upstream keys) sealed with AES-GCM under the server key.

The server key is ``VIGIA_SECRET_KEY`` or one generated once into the data dir. A value is
bound to its workspace and name (associated data), so a row copied elsewhere does not open.
Values are never shown back: listing gives names and dates only.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.db.base import utcnow
from vigia.errors import Invalid, NotFound, VigiaError
from vigia.llm.settings import SECRET_NAME
from vigia.workspaces.models import WorkspaceSecret
from vigia.workspaces.settings_cache import get_settings_cache

MAX_VALUE = 4096
MAX_SECRETS = 50
_NAME = re.compile(SECRET_NAME)
_VALUE = re.compile(r"^[\x21-\x7e]+$")


@lru_cache(maxsize=4)
def _cipher(key: bytes) -> AESGCM:
    return AESGCM(key)


def _bound(workspace_id: str, name: str) -> bytes:
    return f"{workspace_id}\x00{name}".encode()


def seal(workspace_id: str, name: str, value: str) -> bytes:
    """``value`` encrypted for this workspace and name (nonce, then ciphertext and tag)."""
    nonce = os.urandom(12)
    cipher = _cipher(get_settings().resolved_secret_key())
    return nonce + cipher.encrypt(nonce, value.encode(), _bound(workspace_id, name))


def unseal(workspace_id: str, name: str, sealed: bytes) -> str:
    """The value sealed by ``seal``; fails when the key, workspace or name differ."""
    cipher = _cipher(get_settings().resolved_secret_key())
    try:
        return cipher.decrypt(sealed[:12], sealed[12:], _bound(workspace_id, name)).decode()
    except InvalidTag:
        raise VigiaError(
            f"secret '{name}' cannot be decrypted (was VIGIA_SECRET_KEY changed?)",
            status=500,
            code="secret_unreadable",
        ) from None


def check_name(name: str) -> str:
    """``name`` if it is a valid secret name (an identifier of up to 64 characters)."""
    if not _NAME.match(name):
        raise Invalid(
            "secret names are letters, digits and '_' (1 to 64, not starting with a digit)"
        )
    return name


def _row(session: Session, workspace_id: str, name: str) -> WorkspaceSecret | None:
    return session.scalars(
        select(WorkspaceSecret).where(
            WorkspaceSecret.workspace_id == workspace_id, WorkspaceSecret.name == name
        )
    ).one_or_none()


def set_secret(session: Session, workspace_id: str, name: str, value: str) -> WorkspaceSecret:
    """Adds the secret ``name`` or replaces its value."""
    check_name(name)
    if not value or len(value) > MAX_VALUE or not _VALUE.match(value):
        raise Invalid(f"a secret value is 1 to {MAX_VALUE} visible ASCII characters (no spaces)")
    row = _row(session, workspace_id, name)
    if row is None:
        if len(list_secrets(session, workspace_id)) >= MAX_SECRETS:
            raise Invalid(f"a workspace holds at most {MAX_SECRETS} secrets")
        row = WorkspaceSecret(workspace_id=workspace_id, name=name, sealed=b"")
        session.add(row)
    row.sealed = seal(workspace_id, name, value)
    row.updated_at = utcnow()
    session.flush()
    return row


def list_secrets(session: Session, workspace_id: str) -> list[WorkspaceSecret]:
    """The workspace's secrets by name (read only their names and dates)."""
    query = select(WorkspaceSecret).where(WorkspaceSecret.workspace_id == workspace_id)
    return list(session.scalars(query.order_by(WorkspaceSecret.name)))


def secret_names(session: Session, workspace_id: str) -> list[str]:
    """The names of the workspace's secrets."""
    query = select(WorkspaceSecret.name).where(WorkspaceSecret.workspace_id == workspace_id)
    return sorted(session.scalars(query))


def delete_secret(session: Session, workspace_id: str, name: str) -> None:
    """Removes the secret; agents that name it fail their upstream calls until it is back."""
    row = _row(session, workspace_id, name)
    if row is None:
        raise NotFound(f"secret '{name}' not found")
    session.delete(row)
    session.flush()


def secret_value(session: Session, workspace_id: str, name: str) -> str | None:
    """The secret's value in this workspace only; None when it has no such secret."""
    row = _row(session, workspace_id, name)
    return None if row is None else unseal(workspace_id, name, row.sealed)


def turn_secret_value(session: Session, workspace_id: str, name: str) -> str | None:
    """``secret_value`` for a turn: cached while no secret, agent or workspace changes
    (``vigia.workspaces.settings_cache``)."""
    return get_settings_cache().lookup(
        ("secret", workspace_id, name), lambda: secret_value(session, workspace_id, name)
    )
