"""FastAPI dependency aliases every surface shares (``Db``, ``Admin``, ``WriteSlot``);
imports no domain."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.db.session import get_db
from vigia.errors import Unauthorized
from vigia.http.admission import write_slot
from vigia.http.constant_time import same_secret


def require_admin(request: Request) -> None:
    """Admits ``Authorization: Bearer <admin token>``; anything else is a 401."""
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    expected = get_settings().resolved_admin_token()
    if scheme.lower() != "bearer" or not same_secret(value.strip(), expected):
        raise Unauthorized("admin token required")


Admin = Annotated[None, Depends(require_admin)]
# ``scope="function"``: the session commits when the handler returns, before the response
# is sent (the default commits after it, so a client could use a key it was just given and
# be refused).
Db = Annotated[Session, Depends(get_db, scope="function")]
# A write route declares it first: the route runs inside one of the write-admission slots
# (vigia.http.admission), waiting for one on the event loop, or answers 503 with Retry-After.
WriteSlot = Annotated[None, Depends(write_slot)]
