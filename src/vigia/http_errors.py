"""Renders errors in each surface's own format.

- OpenAI-compatible surface (``/v1/…`` but decisions): ``{"detail": "…"}``, 422 included.
- Decisions (``/v1/decide``, ``/v1/systemone``): FastAPI's 422 list; others ``detail`` + ``error``.
- Everything else: ``{"detail": …}`` with FastAPI's 422 list.
- Paths a surface serves as pages (the console): that surface's own ``PageRenderer``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from vigia.errors import VigiaError

DECIDE_PATHS = ("/v1/decide", "/v1/systemone")

PageRenderer = Callable[[Request, int, Any, Mapping[str, str]], Awaitable[Response]]
"""Renders an error as a page: ``(request, status, detail, headers)``."""


def surface_of(path: str) -> str:
    if path.startswith(DECIDE_PATHS):
        return "decide"
    if path.startswith("/v1/"):
        return "openai"
    return "default"


def _location(loc: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def validation_summary(errors: list[Any]) -> str:
    """One readable line for a list of pydantic errors."""
    return "; ".join(
        f"{_location(e.get('loc', ()))}: {e.get('msg', 'invalid')}" for e in errors[:5]
    )


def _jsonable(errors: list[Any]) -> list[dict[str, Any]]:
    out = []
    for e in errors:
        item = {
            "loc": list(e.get("loc", ())),
            "msg": str(e.get("msg", "")),
            "type": e.get("type", ""),
        }
        out.append(item)
    return out


async def _vigia_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, VigiaError)
    body: dict[str, Any] = {"detail": exc.detail}
    if surface_of(request.url.path) == "decide":
        body["error"] = exc.code
    return JSONResponse(body, status_code=exc.status, headers=exc.headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if surface_of(request.url.path) == "openai":
        return JSONResponse({"detail": validation_summary(errors)}, status_code=422)
    return JSONResponse({"detail": _jsonable(errors)}, status_code=422)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    body: dict[str, Any] = {"detail": exc.detail}
    if surface_of(request.url.path) == "decide":
        body["error"] = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return JSONResponse(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))


def install(app: FastAPI, pages: Mapping[str, PageRenderer] | None = None) -> None:
    """Registers the handlers on ``app``; ``pages`` maps a path prefix to its error pages."""
    renderers = dict(pages or {})

    def page_for(request: Request) -> PageRenderer | None:
        path = request.url.path
        return next((r for prefix, r in renderers.items() if path.startswith(prefix)), None)

    async def vigia_error(request: Request, exc: Exception) -> Response:
        page = page_for(request)
        if page is not None and isinstance(exc, VigiaError):
            return await page(request, exc.status, exc.detail, exc.headers)
        return await _vigia_error(request, exc)

    async def validation_error(request: Request, exc: Exception) -> Response:
        page = page_for(request)
        if page is not None and isinstance(exc, RequestValidationError):
            return await page(request, 422, validation_summary(list(exc.errors())), {})
        return await _validation_error(request, exc)

    async def http_error(request: Request, exc: Exception) -> Response:
        page = page_for(request)
        if page is not None and isinstance(exc, StarletteHTTPException):
            headers = getattr(exc, "headers", None) or {}
            return await page(request, exc.status_code, exc.detail, headers)
        return await _http_error(request, exc)

    app.add_exception_handler(VigiaError, vigia_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
