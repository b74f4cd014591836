"""Refuses request bodies over a size limit with 413, before any handler parses them."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_LIMIT = 2 * 1024 * 1024
UPLOAD_LIMIT = 64 * 1024 * 1024
UPLOAD_MARKERS = ("/documents", "/files", "/personal")


def limit_for(path: str) -> int:
    """Uploads (documents, personal files) get a larger allowance than JSON calls."""
    return UPLOAD_LIMIT if any(m in path for m in UPLOAD_MARKERS) else DEFAULT_LIMIT


class _TooLarge(Exception):
    pass


class BodyLimitMiddleware:
    """ASGI middleware: checks Content-Length and counts streamed bytes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = limit_for(scope["path"])
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await _refuse(send, limit)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _refuse(send, limit)


async def _refuse(send: Send, limit: int) -> None:
    body = json.dumps({"detail": f"request body larger than {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
