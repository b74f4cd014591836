"""Run traces: each stage with its start, duration, outcome and detail."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from vigia.db.base import utcnow


@dataclass
class StageRecord:
    name: str
    started_at: datetime
    duration_ms: float = 0.0
    outcome: str = "ok"
    detail: dict[str, Any] = field(default_factory=dict)


class Trace:
    """Collects stage records in order; written with the run in one transaction."""

    def __init__(self) -> None:
        self.stages: list[StageRecord] = []

    @contextmanager
    def stage(self, name: str) -> Iterator[StageRecord]:
        record = StageRecord(name=name, started_at=utcnow())
        start = time.perf_counter()
        try:
            yield record
        except Exception as error:
            record.outcome = "error"
            record.detail.setdefault("error", type(error).__name__)
            raise
        finally:
            record.duration_ms += (time.perf_counter() - start) * 1000
            if record not in self.stages:
                self.stages.append(record)

    def add(self, record: StageRecord) -> None:
        if record not in self.stages:
            self.stages.append(record)
