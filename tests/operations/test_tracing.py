"""OpenTelemetry: one server span per request, one span per engine stage, ids in the run."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, format_trace_id

from tests.chat_calls import ADMIN, chat
from tests.conftest import Tenant
from vigia.observability import tracing


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.install(provider)
    yield exporter
    tracing.uninstall()
    provider.shutdown()


def test_one_span_per_engine_stage_under_the_request_span(
    client: TestClient,
    tenant: Tenant,
    spans: InMemorySpanExporter,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "¿Cuál es el horario?")
    assert status == 200
    run = client.get(f"/admin/runs/{body['sherlock']['run_id']}", headers=ADMIN).json()

    finished = spans.get_finished_spans()
    requests = [s for s in finished if s.kind == SpanKind.SERVER and "chat" in s.name]
    assert [s.name for s in requests] == ["POST /v1/chat/completions"]
    request = requests[0]
    stages = [s for s in finished if s.name.startswith("stage ")]
    assert [s.name.removeprefix("stage ") for s in stages] == [st["name"] for st in run["stages"]]
    assert len(stages) == len(run["stages"]) >= 5
    trace_id = request.context.trace_id
    assert all(s.context.trace_id == trace_id for s in stages)
    assert all(s.parent is not None and s.parent.span_id == request.context.span_id for s in stages)
    assert all(s.attributes is not None and s.attributes["vigia.outcome"] == "ok" for s in stages)
    assert run["trace_id"] == format_trace_id(trace_id)
    assert request.attributes is not None
    assert request.attributes["http.response.status_code"] == 200
    (turn,) = [r for r in caplog.records if r.getMessage() == "turn finished"]
    assert vars(turn)["trace_id"] == run["trace_id"]


def test_a_callers_traceparent_is_continued(
    client: TestClient, spans: InMemorySpanExporter
) -> None:
    parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    client.get("/healthz", headers={"traceparent": parent})
    (span,) = [s for s in spans.get_finished_spans() if s.name == "GET /healthz"]
    assert format_trace_id(span.context.trace_id) == "0af7651916cd43dd8448eb211c80319c"


def test_no_spans_and_no_trace_id_while_tracing_is_off(client: TestClient, tenant: Tenant) -> None:
    assert tracing.tracer() is None
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "hola")
    run = client.get(f"/admin/runs/{body['sherlock']['run_id']}", headers=ADMIN).json()
    assert status == 200 and run["trace_id"] is None


def test_tracing_is_off_unless_configured() -> None:
    assert not tracing.wanted({})
    assert tracing.wanted({"VIGIA_OTEL": "true"})
    assert tracing.wanted({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    assert not tracing.wanted({"VIGIA_OTEL": "true", "OTEL_SDK_DISABLED": "true"})
    assert not tracing.wanted({"OTEL_TRACES_EXPORTER": "none", "VIGIA_OTEL": "1"})
