"""Prometheus metrics of a Vigia process, and their exposition.

Every metric lives in the default registry. With ``PROMETHEUS_MULTIPROC_DIR`` set (before the
process starts) prometheus-client keeps values in files there, and ``exposition()`` merges
every process's files, so several workers behind one port report one set of numbers.
Gauges say how processes combine (``livesum``: the sum over live processes).
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client import multiprocess as prometheus_multiprocess

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)
STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
INDEX_BUCKETS = (0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900)

HTTP_REQUESTS = Counter(
    "vigia_http_requests",
    "HTTP requests by route template and status",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "vigia_http_request_duration_seconds",
    "Time from request to the last byte of the response (streams included)",
    ["method", "route"],
    buckets=LATENCY_BUCKETS,
)
HTTP_IN_FLIGHT = Gauge(
    "vigia_http_requests_in_flight", "Requests being served", multiprocess_mode="livesum"
)
TURNS = Counter("vigia_agent_turns", "Agent turns by final status", ["status", "channel"])
TOKENS = Counter("vigia_tokens", "Model tokens by agent", ["agent", "kind"])
COST = Counter("vigia_cost_usd", "Model cost in USD by agent", ["agent"])
GUARDRAIL_FIRES = Counter(
    "vigia_guardrail_fires", "Guardrail checks that fired, by check and mode", ["check", "mode"]
)
REJECTIONS = Counter(
    "vigia_limit_rejections",
    "Requests refused by a rate limit or a quota (HTTP 429)",
    ["reason", "surface"],
)
BUSY_REFUSALS = Counter(
    "vigia_busy_refusals",
    "Requests refused with 503 + Retry-After: write queue full, write wait too long, "
    "writer busy (no writer connection or lock in time), no database connection",
    ["reason"],
)
STAGE_LATENCY = Histogram(
    "vigia_engine_stage_duration_seconds",
    "Engine stage durations by stage and outcome",
    ["stage", "outcome"],
    buckets=STAGE_BUCKETS,
)
KNOWLEDGE_DOCUMENTS = Counter("vigia_knowledge_documents_indexed", "Knowledge documents indexed")
KNOWLEDGE_CHUNKS = Counter("vigia_knowledge_chunks_indexed", "Knowledge chunks indexed")
KNOWLEDGE_SECONDS = Histogram(
    "vigia_knowledge_index_duration_seconds",
    "Time to parse, chunk and embed one document",
    buckets=INDEX_BUCKETS,
)
WORLD_FILES = Counter("vigia_world_files_indexed", "World files (re)indexed", ["world"])
WORLD_SECONDS = Histogram(
    "vigia_world_index_duration_seconds",
    "Time of one world indexing",
    ["world"],
    buckets=INDEX_BUCKETS,
)
POOL_OPEN = Gauge(
    "vigia_db_pool_connections_open", "Database connections open", multiprocess_mode="livesum"
)
POOL_IN_USE = Gauge(
    "vigia_db_pool_connections_in_use",
    "Database connections checked out of the pool",
    multiprocess_mode="livesum",
)
POOL_CHECKOUTS = Counter("vigia_db_pool_checkouts", "Connections checked out of the pool")


def multiprocess_dir() -> str | None:
    """The shared folder of multi-process mode, if this process runs in it."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def exposition() -> tuple[bytes, str]:
    """The text exposition (every process's values in multi-process mode) and its type."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        prometheus_multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


def process_exited(pid: int | None = None) -> None:
    """Drops a finished worker's live gauges (multi-process mode only)."""
    if multiprocess_dir():
        prometheus_multiprocess.mark_process_dead(pid or os.getpid())


def instrument_pool(engine: Any) -> None:
    """Counts a SQLAlchemy engine's pool: connections open, in use, checkouts."""
    from sqlalchemy import event

    def on_connect(*_: Any) -> None:
        POOL_OPEN.inc()

    def on_close(*_: Any) -> None:
        POOL_OPEN.dec()

    def on_checkout(*_: Any) -> None:
        POOL_IN_USE.inc()
        POOL_CHECKOUTS.inc()

    def on_checkin(*_: Any) -> None:
        POOL_IN_USE.dec()

    event.listen(engine, "connect", on_connect)
    event.listen(engine, "close", on_close)
    event.listen(engine, "checkout", on_checkout)
    event.listen(engine, "checkin", on_checkin)
