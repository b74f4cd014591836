"""Renders errors in each surface's own format.

- OpenAI-compatible surface (``/v1/…`` but decisions): ``{"detail": "…"}``, 422 included.
- Decisions (``/v1/decide``, ``/v1/systemone``): FastAPI's 422 list; others ``detail`` + ``error``.
- Everything else: ``{"detail": …}`` with FastAPI's 422 list.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from vigia.errors import VigiaError
from vigia.observability import report

DECIDE_PATHS = ("/v1/decide", "/v1/systemone")


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
    surface = surface_of(request.url.path)
    if surface == "decide":
        body["error"] = exc.code
    if exc.status == 429:
        report.limit_rejected(exc.code, surface)
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


def install(app: FastAPI) -> None:
    """Registers the handlers on ``app``."""
    app.add_exception_handler(VigiaError, _vigia_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
