"""The input guardrails stage: checks on the user's message before anything reaches the model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vigia.engine.turn import Turn
from vigia.guardrails.checks import check_message
from vigia.guardrails.verdict import Verdict


def verdict_detail(verdicts: list[Verdict]) -> list[dict[str, object]]:
    """How fired verdicts are written into a run trace."""
    return [
        {"name": v.name, "blocking": v.blocking, "severity": v.severity, "reason": v.reason}
        for v in verdicts
    ]


@dataclass(frozen=True)
class InputCheck:
    """The verdicts of the checks that fired on the message."""

    fired: list[Verdict]

    @property
    def blocked(self) -> bool:
        return any(v.blocking for v in self.fired)

    @property
    def outcome(self) -> str:
        return "blocked" if self.blocked else "ok"

    def detail(self) -> dict[str, Any]:
        return {"fired": verdict_detail(self.fired)}


def check_input(turn: Turn) -> InputCheck:
    """Runs the agent's input guardrails on the turn's message."""
    verdicts = check_message(turn.message, turn.config.guardrails)
    return InputCheck([v for v in verdicts if not v.passed])
