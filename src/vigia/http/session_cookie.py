"""The login cookie every surface sets the same way: HttpOnly, SameSite=Lax, kept for the
session's lifetime (``VIGIA_SESSION_TTL_HOURS``), and ``Secure`` whenever the request came
over HTTPS (directly, or as a trusted proxy's ``X-Forwarded-Proto`` says) or
``VIGIA_COOKIE_SECURE`` forces it."""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.responses import Response

from vigia.config import get_settings


def cookie_secure(request: HTTPConnection) -> bool:
    """Whether a cookie set in answer to ``request`` gets ``Secure``."""
    return get_settings().cookie_secure or request.url.scheme == "https"


def set_session_cookie(request: HTTPConnection, response: Response, name: str, token: str) -> None:
    settings = get_settings()
    response.set_cookie(
        name,
        token,
        max_age=settings.session_ttl_hours * 3600,
        httponly=True,
        samesite="lax",
        secure=cookie_secure(request),
        path="/",
    )


def clear_session_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path="/", httponly=True, samesite="lax")
