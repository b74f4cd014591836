"""Refusing cross-site requests to cookie routes (CSRF): what a browser says about the page
that made a request.

A browser marks every request with ``Sec-Fetch-Site`` and a state-changing one with
``Origin``; another site can make a browser send our session cookie (a link, a form) but
cannot make it lie in those headers. A request that says ``Sec-Fetch-Site: cross-site``, or
whose ``Origin`` is not this server's own (the ``Host`` it was sent to, or
``VIGIA_PUBLIC_BASE_URL``), is refused with 403. One with neither header did not come from
a browser page (curl, a script) and passes: it carries no cookie a browser was tricked into
sending.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.requests import HTTPConnection

from vigia.config import get_settings
from vigia.errors import Forbidden


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def own_origins(request: HTTPConnection) -> set[str]:
    """The origins this request may come from: the server as it was addressed, and its public
    address when one is set."""
    origins = {_origin_of(str(request.base_url))}
    public = get_settings().public_base_url
    if public:
        origins.add(_origin_of(public))
    return origins


def is_cross_site(request: HTTPConnection) -> bool:
    """Whether a browser says another site made this request."""
    if request.headers.get("sec-fetch-site", "").lower() == "cross-site":
        return True
    origin = request.headers.get("origin")
    return origin is not None and origin.lower() not in own_origins(request)


def require_same_origin(request: HTTPConnection) -> None:
    """Refuses (403) a request another site made a browser send (a FastAPI dependency)."""
    if is_cross_site(request):
        raise Forbidden("cross-site request refused")
