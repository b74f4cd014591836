"""A timed record (a run's stage, a worlds turn's step) and the block that times it."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar


@dataclass
class TimedRecord:
    """A named piece of work: when it started, how long it took, how it ended."""

    name: str
    started_at: datetime
    duration_ms: float = 0.0
    outcome: str = "ok"
    detail: dict[str, Any] = field(default_factory=dict)


Record = TypeVar("Record", bound=TimedRecord)


@contextmanager
def timed(record: Record, done: Callable[[Record], None]) -> Iterator[Record]:
    """Times the block into ``record`` (an exception marks it ``error``, with the
    exception's type in its detail, and goes on), then hands it to ``done``."""
    start = time.perf_counter()
    try:
        yield record
    except Exception as error:
        record.outcome = "error"
        record.detail.setdefault("error", type(error).__name__)
        raise
    finally:
        record.duration_ms += (time.perf_counter() - start) * 1000
        done(record)
