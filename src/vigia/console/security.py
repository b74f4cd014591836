"""The console's browser defences: a strict Content-Security-Policy and CSRF tokens.

CSRF uses a double-submit token: a random value in an HttpOnly, SameSite=Strict cookie
(``vigia_csrf``, path ``/console``) that every form repeats in its ``csrf`` field, and
every script request in the ``X-CSRF-Token`` header. Another site can make a browser send
the cookie (it cannot with SameSite=Strict, but older browsers might) yet cannot read it,
so it cannot write the matching field. ``require_csrf`` is a dependency of every console
router (``vigia.console.router.mount``), so every route but GET, HEAD and OPTIONS checks it.
"""

from __future__ import annotations

import secrets

from fastapi import Request
from starlette.responses import Response

from vigia.errors import Forbidden
from vigia.http.constant_time import same_secret
from vigia.http.session_cookie import cookie_secure

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; object-src 'none'"
)
CSRF_COOKIE = "vigia_csrf"
CSRF_FIELD = "csrf"
CSRF_HEADER = "x-csrf-token"
_TOKEN_CHARS = range(32, 101)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _cookie_token(request: Request) -> str | None:
    token = request.cookies.get(CSRF_COOKIE)
    return token if token and len(token) in _TOKEN_CHARS else None


def csrf_token(request: Request) -> str:
    """The request's CSRF token: the cookie's, or a new one that ``keep_csrf`` will set."""
    token = _cookie_token(request) or getattr(request.state, "new_csrf", None)
    if token is None:
        token = request.state.new_csrf = secrets.token_urlsafe(32)
    return str(token)


def keep_csrf(request: Request, response: Response) -> None:
    """Sets the cookie when this request made the token."""
    token = getattr(request.state, "new_csrf", None)
    if token is not None:
        response.set_cookie(
            CSRF_COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=cookie_secure(request),
            path="/console",
        )


async def require_csrf(request: Request) -> None:
    """Refuses (403) a write whose header or ``csrf`` field does not repeat the cookie."""
    if request.method in SAFE_METHODS:
        return
    expected = _cookie_token(request)
    sent = request.headers.get(CSRF_HEADER)
    if sent is None:
        field = (await request.form()).get(CSRF_FIELD)
        sent = field if isinstance(field, str) else None
    if expected is None or sent is None or not same_secret(sent, expected):
        raise Forbidden("csrf")
