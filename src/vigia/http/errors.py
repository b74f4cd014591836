"""Renders errors in each surface's own format.

- OpenAI-compatible surface (``/v1/…`` but decisions): ``{"detail": "…"}``, 422 included.
- Decisions (``/v1/decide``, ``/v1/systemone``): FastAPI's 422 list; others ``detail`` + ``error``.
- Everything else: ``{"detail": …}`` with FastAPI's 422 list.

Middleware that answers before the routes (body limit, request text) renders with the same
functions, so a refusal looks the same wherever it is decided. Saturation (write queue full,
no database connection or lock in time) is a 503 with Retry-After in the same shapes.

Paths a surface serves as pages (the console) render errors with that surface's own
``PageRenderer`` instead.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from vigia.errors import Overloaded, VigiaError
from vigia.observability import report
from vigia.observability.metrics import BUSY_REFUSALS

DECIDE_PATHS = ("/v1/decide", "/v1/systemone")
# The ``error`` code of a status raised outside a ``VigiaError`` (routing, body limit).
STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "rate_limited",
}


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
    return ".".join(parts) or (str(loc[0]) if loc else "body")


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


def error_body(path: str, status: int, detail: Any, code: str | None = None) -> dict[str, Any]:
    """``{"detail": …}``, plus the ``error`` code on the decisions surface."""
    body: dict[str, Any] = {"detail": detail}
    if surface_of(path) == "decide":
        body["error"] = code or STATUS_CODES.get(status, "error")
    return body


def validation_response(path: str, errors: list[Any]) -> JSONResponse:
    """The 422 of a request that failed validation, in the surface's shape."""
    if surface_of(path) == "openai":
        return JSONResponse({"detail": validation_summary(errors)}, status_code=422)
    return JSONResponse({"detail": _jsonable(errors)}, status_code=422)


async def _vigia_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, VigiaError)
    surface = surface_of(request.url.path)
    body = error_body(request.url.path, exc.status, exc.detail, exc.code)
    if exc.status == 429:
        report.limit_rejected(exc.code, surface)
    return JSONResponse(body, status_code=exc.status, headers=exc.headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return validation_response(request.url.path, list(exc.errors()))


def every_route(routes: list[BaseRoute]) -> Iterator[Route]:
    """Every route below ``routes``, through included routers (FastAPI wraps each one)."""
    for route in routes:
        if isinstance(route, Route):
            yield route
        included = getattr(route, "original_router", None)
        if included is not None:
            yield from every_route(included.routes)


def allowed_methods(app: FastAPI, path: str) -> str:
    """The ``Allow`` header of ``path``: the methods of every route that serves it (routing
    alone names those of the first route it tried), static files' ``GET`` included."""
    methods: set[str] = set()
    for route in every_route(app.router.routes):
        if route.methods and route.path_regex.match(path):
            methods |= route.methods
    static = [
        r for r in app.router.routes if isinstance(r, Mount) and isinstance(r.app, StaticFiles)
    ]
    if any(mount.path_regex.match(path) for mount in static):
        methods.add("GET")
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


def _error_headers(request: Request, exc: StarletteHTTPException) -> dict[str, str]:
    headers = dict(getattr(exc, "headers", None) or {})
    if exc.status_code == 405:
        headers["Allow"] = allowed_methods(request.app, request.url.path)
    return headers


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    body = error_body(request.url.path, exc.status_code, exc.detail)
    return JSONResponse(body, status_code=exc.status_code, headers=_error_headers(request, exc))


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


ERROR_SCHEMAS: dict[str, dict[str, Any]] = {
    "ErrorDetail": {
        "title": "ErrorDetail",
        "type": "object",
        "required": ["detail"],
        "properties": {"detail": {"type": "string", "title": "Detail"}},
    },
    "DecideError": {
        "title": "DecideError",
        "type": "object",
        "required": ["detail", "error"],
        "properties": {
            "detail": {"type": "string", "title": "Detail"},
            "error": {"type": "string", "title": "Error"},
        },
    },
}
# What each surface answers with 422 (validation or a domain's ``Invalid``) and other 4xx.
SURFACE_ERRORS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "openai": (_ref("ErrorDetail"), _ref("ErrorDetail")),
    "decide": (
        {"anyOf": [_ref("HTTPValidationError"), _ref("DecideError")]},
        _ref("DecideError"),
    ),
    "default": (
        {"anyOf": [_ref("HTTPValidationError"), _ref("ErrorDetail")]},
        _ref("ErrorDetail"),
    ),
}


RETRY_AFTER_HEADER = {
    "description": "Seconds to wait before retrying",
    "schema": {"type": "integer", "minimum": 1},
}


def _response(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def document_errors(openapi: dict[str, Any]) -> None:
    """Writes each surface's error shapes into an OpenAPI document, in place: its 422 (FastAPI
    documents its own list shape only), every other 4xx, and the 503 with Retry-After that
    any operation answers when no database connection or write slot comes free in time."""
    schemas = openapi.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(ERROR_SCHEMAS)
    for path, operations in openapi.get("paths", {}).items():
        invalid, other = SURFACE_ERRORS[surface_of(path)]
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if "422" in responses:
                responses["422"] = _response("Validation Error", invalid)
            responses.setdefault("4XX", _response("Client Error", other))
            busy = _response("Busy: retry after Retry-After seconds", other)
            busy["headers"] = {"Retry-After": RETRY_AFTER_HEADER}
            responses.setdefault("503", busy)


async def _pool_timeout(request: Request, exc: Exception) -> JSONResponse:
    """No database connection came free in time: a 503 to retry, never a 500."""
    BUSY_REFUSALS.labels("no database connection").inc()
    busy = Overloaded("the server is busy; retry shortly", headers={"Retry-After": "2"})
    return await _vigia_error(request, busy)


def install(app: FastAPI, pages: Mapping[str, PageRenderer] | None = None) -> None:
    """Registers the handlers on ``app`` and documents the error shapes in its OpenAPI;
    ``pages`` maps a path prefix to the renderer of its error pages."""
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
            return await page(request, exc.status_code, exc.detail, _error_headers(request, exc))
        return await _http_error(request, exc)

    app.add_exception_handler(VigiaError, vigia_error)
    app.add_exception_handler(PoolTimeout, _pool_timeout)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document_errors(generate())
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]
