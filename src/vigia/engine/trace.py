"""Run traces: each stage with its start, duration, outcome and detail.

``Trace.run`` wraps a stage: it times the call and records what the stage's typed outcome
says about itself, so stages never touch the trace. ``Trace.add`` is the one place every
finished record passes through: it reports the stage to the metrics and, while tracing,
as a span; the trace keeps the OpenTelemetry trace id it started in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, ParamSpec, Protocol, TypeVar

from vigia.db.base import utcnow
from vigia.http import client_gone
from vigia.kit.timed import TimedRecord, timed
from vigia.observability import report, tracing


class Outcome(Protocol):
    """What every stage returns: a short outcome and a detail for the trace."""

    @property
    def outcome(self) -> str: ...

    def detail(self) -> dict[str, Any]: ...


P = ParamSpec("P")
StageOutcome = TypeVar("StageOutcome", bound=Outcome)


class StageRecord(TimedRecord):
    """One stage of a run."""


class Trace:
    """Collects stage records in order; written with the run in one transaction."""

    def __init__(self) -> None:
        self.stages: list[StageRecord] = []
        self.trace_id: str | None = tracing.current_trace_id()

    def run(
        self, name: str, stage: Callable[P, StageOutcome], *args: P.args, **kwargs: P.kwargs
    ) -> StageOutcome:
        """Runs ``stage`` and records it under ``name`` (an exception is recorded as error)."""
        with self.timed(name) as record:
            result = stage(*args, **kwargs)
            record.outcome = result.outcome
            record.detail = result.detail()
        return result

    @contextmanager
    def timed(self, name: str) -> Iterator[StageRecord]:
        """A record for ``name`` timed over the block; no stage starts for a client that
        has gone (``ClientGone``)."""
        client_gone.check()
        with timed(StageRecord(name=name, started_at=utcnow()), self.add) as record:
            yield record

    def add(self, record: StageRecord) -> None:
        """Appends a finished record (once) and reports it."""
        if any(kept is record for kept in self.stages):
            return
        self.stages.append(record)
        report.stage_finished(
            record.name, record.started_at, record.duration_ms, record.outcome, record.detail
        )
