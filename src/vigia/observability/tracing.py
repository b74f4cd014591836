"""OpenTelemetry tracing: off unless configured, one span per request and per engine stage.

Turned on by ``VIGIA_OTEL=true`` or by the standard variables (``OTEL_TRACES_EXPORTER``,
``OTEL_EXPORTER_OTLP_ENDPOINT``, ``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT``); ``OTEL_SDK_DISABLED``
and ``OTEL_TRACES_EXPORTER=none`` keep it off. The SDK and the OTLP exporter come with the
``otel`` extra; only the API (a FastAPI dependency) is needed when tracing is off.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from opentelemetry import trace
from opentelemetry.trace import Span, SpanKind, Status, StatusCode, Tracer, format_trace_id

_state: dict[str, Any] = {"tracer": None, "configured": False}
_TRUE = ("1", "true", "yes", "on")


def tracer() -> Tracer | None:
    """Vigia's tracer, or None while tracing is off."""
    tracer_: Tracer | None = _state["tracer"]
    return tracer_


def install(provider: Any) -> None:
    """Traces into ``provider``, an SDK ``TracerProvider`` (tests pass an in-memory one)."""
    _state["tracer"] = provider.get_tracer("vigia")


def uninstall() -> None:
    _state["tracer"] = None


def wanted(env: Mapping[str, str] | None = None) -> bool:
    """Whether the environment asks for tracing."""
    env = os.environ if env is None else env
    if env.get("OTEL_SDK_DISABLED", "").lower() in _TRUE:
        return False
    exporter = env.get("OTEL_TRACES_EXPORTER", "").lower()
    if exporter == "none":
        return False
    return (
        env.get("VIGIA_OTEL", "").lower() in _TRUE
        or bool(exporter)
        or bool(env.get("OTEL_EXPORTER_OTLP_ENDPOINT"))
        or bool(env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"))
    )


def configure() -> bool:
    """Sets up the SDK with the configured exporter, once per process; True when tracing."""
    if _state["configured"]:
        return tracer() is not None
    _state["configured"] = True
    if not wanted():
        return False
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import (
            BatchSpanProcessor,
            ConsoleSpanExporter,
            SpanExporter,
        )
    except ImportError as error:  # pragma: no cover - depends on the install
        raise RuntimeError('tracing needs the otel extra: pip install "vigia[otel]"') from error
    exporter: SpanExporter
    if os.environ.get("OTEL_TRACES_EXPORTER", "otlp").lower() == "console":
        exporter = ConsoleSpanExporter()
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter = OTLPSpanExporter()
    resource = Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", "vigia")})
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    install(provider)
    return True


def current_trace_id() -> str | None:
    """The current trace's id (32 hex digits), or None outside a recorded trace."""
    context = trace.get_current_span().get_span_context()
    return format_trace_id(context.trace_id) if context.is_valid else None


def start_request_span(name: str, headers: Mapping[str, str], attributes: dict[str, Any]) -> Span:
    """A server span continuing the caller's ``traceparent``; None-like when tracing is off."""
    from opentelemetry.propagate import extract

    active = tracer()
    assert active is not None
    return active.start_span(
        name, context=extract(dict(headers)), kind=SpanKind.SERVER, attributes=attributes
    )


def record_span(
    name: str, start_ns: int, end_ns: int, attributes: dict[str, Any], failed: bool = False
) -> None:
    """A finished span under the current one (engine stages report after they ran)."""
    active = tracer()
    if active is None:
        return
    span = active.start_span(name, start_time=start_ns, attributes=attributes)
    if failed:
        span.set_status(Status(StatusCode.ERROR))
    span.end(end_time=max(end_ns, start_ns))
