"""What a worlds turn hands to the engine for its run, and the gate the engine keeps.

Worlds sit below the engine and cannot call it; the app gives the worlds routes a
``TurnGate`` (``app.state.worlds_gate``, the engine's). The gate admits a turn (budget,
input guardrails: a refusal is a client error, its run recorded) and returns a ``TurnLog``;
the turn times its steps on the log and meters every model call into ``log.ledger``; the
gate then stores the run with those stages, its usage and its cost.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from vigia.db.base import utcnow
from vigia.kit.timed import TimedRecord, timed
from vigia.llm.metered import UsageLedger

RUN_HEADER = "X-Vigia-Run"
"""The response header naming a worlds turn's run (``vigia runs show RUN``), refusals too."""


class Step(TimedRecord):
    """One timed step of a turn (a stage of its run)."""


@dataclass
class TurnLog:
    """A worlds turn's run in the making: its steps and its model calls."""

    run_id: str
    workspace_id: str
    world_id: str
    steps: list[Step] = field(default_factory=list)
    ledger: UsageLedger = field(default_factory=UsageLedger)
    started: float = field(default_factory=time.perf_counter)
    budget_alert: bool = False
    lens: str = ""

    @contextmanager
    def step(self, name: str) -> Iterator[Step]:
        """A step timed over the block (an exception marks it ``error`` and goes on)."""
        with timed(Step(name, utcnow()), self.steps.append) as record:
            yield record

    @property
    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


class TurnGate(Protocol):
    """The engine's side of a worlds turn."""

    def admit(self, workspace_id: str, world_id: str, message: str) -> TurnLog:
        """Checks the workspace budget and the message (input guardrails) before any model;
        raises a client error, with the refused turn's run recorded, when either refuses."""
        ...

    def settle(self, log: TurnLog, conversation_id: int | None, error: str | None = None) -> None:
        """Stores the turn's run: its stages, usage and cost (``error``: the turn failed)."""
        ...
