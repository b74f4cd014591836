"""Refuses request bodies over a size limit with 413, before any handler parses them.

A declared ``Content-Length`` over the limit is refused at once. A body sent without one
(chunked) is counted as it streams: past the limit, reading it raises an ``HTTPException``
(413), which FastAPI lets through its body parsing (any other error there becomes a 400) to
the app's error handlers, and this middleware answers the 413 itself when nothing did.
Both render in the surface's error shape.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import Message, Receive, Scope, Send

from vigia.http.errors import error_body
from vigia.http.middleware import HttpMiddleware, StartWatch

DEFAULT_LIMIT = 2 * 1024 * 1024
UPLOAD_LIMIT = 64 * 1024 * 1024
UPLOAD_MARKERS = ("/documents", "/files", "/personal")


def limit_for(path: str) -> int:
    """Uploads (documents, personal files) get a larger allowance than JSON calls."""
    return UPLOAD_LIMIT if any(m in path for m in UPLOAD_MARKERS) else DEFAULT_LIMIT


def _detail(limit: int) -> str:
    return f"request body larger than {limit} bytes"


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` once a streamed body passes its limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, _detail(limit))


class BodyLimitMiddleware(HttpMiddleware):
    """ASGI middleware: checks Content-Length and counts streamed bytes."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = limit_for(scope["path"])
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await _refuse(scope, receive, send, limit)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        watched = StartWatch(send)
        try:
            await self.app(scope, limited, watched)
        except BodyTooLarge:
            if watched.started:
                raise
            await _refuse(scope, receive, send, limit)


async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    body = error_body(scope["path"], 413, _detail(limit))
    await JSONResponse(body, status_code=413)(scope, receive, send)
