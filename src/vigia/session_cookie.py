"""The login cookie every surface sets the same way: HttpOnly, SameSite=Lax, ``Secure`` with
``VIGIA_COOKIE_SECURE``, kept for the session's lifetime (``VIGIA_SESSION_TTL_HOURS``)."""

from __future__ import annotations

from starlette.responses import Response

from vigia.config import get_settings


def set_session_cookie(response: Response, name: str, token: str) -> None:
    settings = get_settings()
    response.set_cookie(
        name,
        token,
        max_age=settings.session_ttl_hours * 3600,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
        path="/",
    )


def clear_session_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path="/", httponly=True, samesite="lax")
