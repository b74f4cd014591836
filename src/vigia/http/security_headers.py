"""Security headers on every HTTP response, added as the response starts (streams included).

- ``X-Content-Type-Options: nosniff``: a JSON or text answer is never run as a script.
- ``Referrer-Policy: no-referrer``: links followed from a page leak nothing.
- ``X-Frame-Options: DENY`` and ``Content-Security-Policy: frame-ancestors 'none'``: no page
  of ours can be framed (click-jacking).
- ``Cache-Control: no-store`` unless the route set its own: every answer is per-credential,
  and some carry secrets (a new key, a session cookie) that no cache may keep.

A pure ASGI middleware (not ``BaseHTTPMiddleware``): it only rewrites the start message, so
streamed bodies flow through untouched.
"""

from __future__ import annotations

from starlette.types import Message, Receive, Scope, Send

from vigia.http.middleware import HttpMiddleware

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"cache-control", b"no-store"),
)


def with_security_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` plus each security header the response did not set itself."""
    present = {name.lower() for name, _ in headers}
    return headers + [(name, value) for name, value in HEADERS if name not in present]


class SecurityHeadersMiddleware(HttpMiddleware):
    """ASGI middleware: adds the security headers as each response starts."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                message = {**message, "headers": with_security_headers(headers)}
            await send(message)

        await self.app(scope, receive, send_with_headers)
