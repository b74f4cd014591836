"""The shape Vigia's pure ASGI middlewares share: each wraps the next app and acts on HTTP
requests only; lifespan (and any other) scopes pass straight through.

Pure ASGI rather than ``BaseHTTPMiddleware``, so streamed responses flow through untouched.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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


class StartWatch:
    """A ``send`` that passes every message on and notes whether the response has started
    (after that, a middleware can no longer answer with a response of its own)."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = False

    async def __call__(self, message: Message) -> None:
        self.started = self.started or message["type"] == "http.response.start"
        await self._send(message)
