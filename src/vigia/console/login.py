"""Logging in and out of the console, choosing the language, and landing in a workspace."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from starlette.responses import Response

from vigia.console.access import ConsoleUser, access_to, home_of, workspaces_of
from vigia.console.catalogue import LANGUAGES
from vigia.console.errors import safe_next
from vigia.console.form_limits import bounds
from vigia.console.rendering import LANG_COOKIE, page
from vigia.console.responses import see_other
from vigia.errors import RateLimited, Unauthorized
from vigia.http.deps import Db
from vigia.http.session_cookie import clear_session_cookie, set_session_cookie
from vigia.users import service as users
from vigia.users.schemas import LoginRequest

router = APIRouter(prefix="/console", include_in_schema=False)
LIMITS = {name: bounds(LoginRequest, name) for name in ("username", "password")}


@router.get("")
def home(user: ConsoleUser, request: Request, db: Db) -> Response:
    """The first workspace of the user, or a page saying they have none yet."""
    memberships = workspaces_of(db, user)
    if not memberships:
        return page(request, "no_workspace.html", user=user)
    workspace = memberships[0][0]
    return see_other(home_of(access_to(workspace.id, user, db)))


@router.get("/w/{ws}")
def workspace_home(ws: str, user: ConsoleUser, db: Db) -> Response:
    return see_other(home_of(access_to(ws, user, db)))


@router.get("/login")
def login_form(request: Request, next: str = "/console") -> Response:
    return page(request, "login.html", next=safe_next(next), error=None, wait=0, limits=LIMITS)


def throttled(retry_after: str) -> tuple[str, int]:
    """The throttle's message and the wait it names, as ``Retry-After`` says: seconds under
    two minutes, whole minutes (rounded up) from there."""
    seconds = int(retry_after) if retry_after.isdigit() else 60
    if seconds < 120:
        return "login.throttled_seconds", max(seconds, 1)
    return "login.throttled_minutes", -(-seconds // 60)


@router.post("/login")
def login(
    request: Request,
    db: Db,
    username: Annotated[str, Form(max_length=64)],
    password: Annotated[str, Form(max_length=1024)],
    next: Annotated[str, Form(max_length=2000)] = "/console",
) -> Response:
    """Checks the password (throttled like every login) and opens a session."""
    address = request.client.host if request.client else "unknown"
    try:
        _, token = users.login(db, username, password, address)
    except (Unauthorized, RateLimited) as error:
        key, wait = throttled(error.headers.get("Retry-After", ""))
        if isinstance(error, Unauthorized):
            key, wait = "login.invalid", 0
        refused = page(
            request,
            "login.html",
            status=error.status,
            next=safe_next(next),
            error=key,
            wait=wait,
            limits=LIMITS,
        )
        refused.headers.update(error.headers)
        return refused
    response = see_other(safe_next(next))
    set_session_cookie(request, response, users.COOKIE, token)
    return response


@router.post("/logout")
def logout(request: Request, db: Db) -> Response:
    users.logout(db, request.cookies.get(users.COOKIE))
    response = see_other("/console/login")
    clear_session_cookie(response, users.COOKIE)
    return response


@router.post("/language")
def language(
    lang: Annotated[str, Form(max_length=8)],
    next: Annotated[str, Form(max_length=2000)] = "/console",
) -> Response:
    """Remembers the chosen language for a year."""
    response = see_other(safe_next(next))
    if lang in LANGUAGES:
        response.set_cookie(
            LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="lax", path="/console"
        )
    return response
