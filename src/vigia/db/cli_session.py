"""One CLI command's transaction on a migrated database; a domain error exits 1."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.orm import Session

from vigia.db.migrate import upgrade
from vigia.db.session import session_scope
from vigia.errors import VigiaError
from vigia.kit.cli_output import fail

T = TypeVar("T")


def in_session(as_json: bool, action: Callable[[Session], T]) -> T:
    """Runs ``action(session)`` in one transaction on a migrated database; errors exit 1."""
    try:
        upgrade()
        with session_scope() as session:
            return action(session)
    except VigiaError as error:
        fail(error, as_json)
