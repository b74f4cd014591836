"""Error pages of the console: a 401 sends the browser to the login form, others render
``error.html`` with the status (a short fragment for htmx requests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from fastapi import Request
from starlette.responses import RedirectResponse, Response

from vigia.console.rendering import is_htmx, page

KNOWN = {"csrf", "role", "workspace"}
"""Details raised with a message key of the catalog (``error.<key>``)."""


def safe_next(target: str | None) -> str:
    """``target`` when it is a console path of this site, else the console's root."""
    if target and target.startswith("/console/") and not target.startswith("/console//"):
        return target
    return "/console"


async def render(
    request: Request, status: int, detail: Any, headers: Mapping[str, str]
) -> Response:
    """The page for an error raised while serving a console path."""
    if status == 401:
        login = "/console/login?next=" + quote(safe_next(request.url.path), safe="/")
        if is_htmx(request):
            return Response(status_code=204, headers={"HX-Redirect": login})
        return RedirectResponse(login, status_code=303)
    text = str(detail) if not isinstance(detail, list) else "; ".join(map(str, detail))
    key = f"error.{text}" if text in KNOWN else None
    template = "error_fragment.html" if is_htmx(request) else "error.html"
    response = page(request, template, status=status, status_code=status, key=key, detail=text)
    for name, value in headers.items():
        response.headers[name] = value
    return response
