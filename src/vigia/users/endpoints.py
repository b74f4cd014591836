"""The JSON login for everyone who logs in (worlds and any cookie client): ``/auth/login``
and ``/auth/logout``. Both refuse a request another site made (``vigia.http.fetch_site``)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response

from vigia.http.deps import Db
from vigia.http.fetch_site import require_same_origin
from vigia.http.session_cookie import clear_session_cookie, set_session_cookie
from vigia.users import service as users
from vigia.users.schemas import DoneOut, LoginOut, LoginRequest

# They set and clear the cookie: none may be made by another site.
router = APIRouter(tags=["auth"], dependencies=[Depends(require_same_origin)])


@router.post("/auth/login")
def login(body: LoginRequest, request: Request, response: Response, session: Db) -> LoginOut:
    """Password login; repeated failures lock the user name at that address, and the address,
    with a capped backoff (429 with ``Retry-After``)."""
    address = request.client.host if request.client else "unknown"
    user, token = users.login(session, body.username, body.password, address)
    set_session_cookie(request, response, users.COOKIE, token)
    return LoginOut(id=user.id, name=user.name)


@router.post("/auth/logout")
def logout(request: Request, response: Response, session: Db) -> DoneOut:
    users.logout(session, request.cookies.get(users.COOKIE))
    clear_session_cookie(response, users.COOKIE)
    return DoneOut()
