"""Pure ASGI middleware: request id, request metrics, the request span and its log line.

Pure ASGI (not ``BaseHTTPMiddleware``) so streamed responses pass through untouched; the
latency it records runs to the last byte of the body, so a stream counts whole.
"""

from __future__ import annotations

import logging
import time

from opentelemetry import trace
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vigia.http.middleware import HttpMiddleware
from vigia.observability import context, logs, metrics, tracing

logger = logging.getLogger("vigia.http")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
QUIET_ROUTES = frozenset({"/healthz", "/readyz", "/metrics"})
UNMATCHED = "<unmatched>"


def route_of(scope: Scope) -> str:
    """The matched route's template (``/v1/runs/{run_id}``), never the raw path."""
    route = scope.get("route")
    path = getattr(route, "path_format", None) or getattr(route, "path", None)
    return str(path) if path else UNMATCHED


class ObservabilityMiddleware(HttpMiddleware):
    """Wraps every HTTP request; install it outermost so refusals are counted too."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)
        logs.install_context()
        tracing.configure()

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        request = context.open_request(headers.get("x-request-id"))
        request_id = (request.request_id or "").encode()
        method = scope["method"] if scope["method"] in METHODS else "OTHER"
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message = {
                    **message,
                    "headers": [*message.get("headers", []), (b"x-request-id", request_id)],
                }
            await send(message)

        span = None
        if tracing.tracer() is not None:
            span = tracing.start_request_span(
                method, headers, {"http.request.method": method, "url.path": scope["path"]}
            )
        started = time.perf_counter()
        metrics.HTTP_IN_FLIGHT.inc()
        try:
            if span is None:
                await self.app(scope, receive, send_with_id)
            else:
                with trace.use_span(span, end_on_exit=False):
                    await self.app(scope, receive, send_with_id)
        finally:
            metrics.HTTP_IN_FLIGHT.dec()
            elapsed = time.perf_counter() - started
            route = route_of(scope)
            metrics.HTTP_REQUESTS.labels(method, route, str(status)).inc()
            metrics.HTTP_LATENCY.labels(method, route).observe(elapsed)
            if span is not None:
                span.update_name(f"{method} {route}")
                span.set_attribute("http.route", route)
                span.set_attribute("http.response.status_code", status)
                if status >= 500:
                    span.set_status(trace.Status(trace.StatusCode.ERROR))
                span.end()
            line = {
                "method": method,
                "route": route,
                "status": status,
                "duration_ms": round(elapsed * 1000, 3),
            }
            if span is not None:
                line["trace_id"] = trace.format_trace_id(span.get_span_context().trace_id)
            level = logging.DEBUG if route in QUIET_ROUTES else logging.INFO
            logger.log(level, "request", extra=line)
