"""Answers an unexpected exception as a 500 in the surface's shape, inside the middlewares
that add the security headers and the request id, so the 500 carries both.

Starlette's own last-resort handler sits outside every middleware of the app: its bare
``Internal Server Error`` left without them. This one answers first (when no response has
started) and re-raises, so the server still logs the exception and tests still see it.
"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from vigia.http.errors import error_body
from vigia.http.middleware import HttpMiddleware, StartWatch

DETAIL = "internal server error"


class ServerErrorMiddleware(HttpMiddleware):
    """ASGI middleware: a 500 in the surface's shape for an exception no handler took."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        watched = StartWatch(send)
        try:
            await self.app(scope, receive, watched)
        except Exception:
            if not watched.started:
                body = error_body(scope["path"], 500, DETAIL, "internal_error")
                await JSONResponse(body, status_code=500)(scope, receive, send)
            raise
