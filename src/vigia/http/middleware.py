"""The shape Vigia's pure ASGI middlewares share: each wraps the next app and acts on HTTP
requests only; lifespan (and any other) scopes pass straight through.

Pure ASGI rather than ``BaseHTTPMiddleware``, so streamed responses flow through untouched.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpMiddleware:
    """Base of an ASGI middleware: subclasses implement ``handle`` for HTTP requests."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serves one HTTP request, calling ``self.app`` as the next app."""
        raise NotImplementedError
