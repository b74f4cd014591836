"""What the engine and the domains report: one function per kind of event.

Each function updates the metrics and, where it matters, the trace and the log; callers
never touch prometheus-client or OpenTelemetry themselves.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from vigia.observability import metrics, tracing

logger = logging.getLogger("vigia.engine")


def stage_finished(
    name: str, started_at: datetime, duration_ms: float, outcome: str, detail: dict[str, Any]
) -> None:
    """An engine stage ran: its latency histogram and (while tracing) its span."""
    metrics.STAGE_LATENCY.labels(name, outcome).observe(max(duration_ms, 0.0) / 1000)
    if tracing.tracer() is None:
        return
    start_ns = int(started_at.timestamp() * 1_000_000_000)
    attributes: dict[str, Any] = {"vigia.stage": name, "vigia.outcome": outcome}
    if "error" in detail:
        attributes["vigia.error"] = str(detail["error"])
    tracing.record_span(
        f"stage {name}",
        start_ns,
        start_ns + int(duration_ms * 1_000_000),
        attributes,
        failed=outcome == "error",
    )


def turn_finished(run: dict[str, Any]) -> None:
    """A run was stored: turn, token and cost counters, and one info line (no contents)."""
    agent = str(run.get("agent_id") or "")
    metrics.TURNS.labels(run["status"], run.get("channel") or "").inc()
    if run.get("prompt_tokens"):
        metrics.TOKENS.labels(agent, "prompt").inc(run["prompt_tokens"])
    if run.get("completion_tokens"):
        metrics.TOKENS.labels(agent, "completion").inc(run["completion_tokens"])
    if run.get("cost_usd"):
        metrics.COST.labels(agent).inc(run["cost_usd"])
    logger.info(
        "turn finished",
        extra={
            "status": run["status"],
            "channel": run.get("channel"),
            "env": run.get("env"),
            "model": run.get("model"),
            "duration_ms": run.get("duration_ms"),
            "prompt_tokens": run.get("prompt_tokens"),
            "completion_tokens": run.get("completion_tokens"),
            "cost_usd": run.get("cost_usd"),
        },
    )


def guardrail_fired(check: str, mode: str) -> None:
    metrics.GUARDRAIL_FIRES.labels(check, mode).inc()


def limit_rejected(reason: str, surface: str) -> None:
    """A 429: ``reason`` is the error code (``rate_limited``, ``quota_exceeded``)."""
    metrics.REJECTIONS.labels(reason, surface).inc()


def knowledge_indexed(chunks: int, seconds: float) -> None:
    metrics.KNOWLEDGE_DOCUMENTS.inc()
    metrics.KNOWLEDGE_CHUNKS.inc(chunks)
    metrics.KNOWLEDGE_SECONDS.observe(seconds)


def world_indexed(world: str, files: int, seconds: float) -> None:
    metrics.WORLD_FILES.labels(world).inc(files)
    metrics.WORLD_SECONDS.labels(world).observe(seconds)
    logger.info("world indexed", extra={"world": world, "files": files, "seconds": seconds})
