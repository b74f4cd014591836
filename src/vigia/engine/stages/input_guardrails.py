"""The input guardrails stage: checks on what the client sent before anything reaches the model.

Every user message of the request is checked — the new one and those of the history an
OpenAI-style client resends — with the length limit on every message; verdicts are cached
by message hash (``guardrails.messages``), so resent history costs nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vigia.engine.turn import Turn
from vigia.guardrails.messages import check_messages
from vigia.guardrails.verdict import Verdict


def verdict_detail(verdicts: list[Verdict]) -> list[dict[str, object]]:
    """How fired verdicts are written into a run trace."""
    out: list[dict[str, object]] = []
    for v in verdicts:
        row: dict[str, object] = {
            "name": v.name,
            "blocking": v.blocking,
            "severity": v.severity,
            "reason": v.reason,
        }
        if "message" in v.detail:
            row["message"] = v.detail["message"]
        out.append(row)
    return out


@dataclass(frozen=True)
class InputCheck:
    """The verdicts of the checks that fired on the request's messages."""

    fired: list[Verdict]
    messages: int = 1

    @property
    def blocked(self) -> bool:
        return any(v.blocking for v in self.fired)

    @property
    def outcome(self) -> str:
        return "blocked" if self.blocked else "ok"

    def detail(self) -> dict[str, Any]:
        return {"fired": verdict_detail(self.fired), "messages": self.messages}


def check_input(turn: Turn) -> InputCheck:
    """Runs the agent's input guardrails on every message the client sent for the turn.

    In the verdicts' ``message`` detail, positions count the contact's messages of the
    request from 0 (the new message is the last); ``"other"`` is an earlier reply.
    """
    history = turn.request.supplied_history or []
    contact = [m.content for m in history if m.role == "user"] + [turn.message]
    others = [m.content for m in history if m.role != "user"]
    verdicts = check_messages(contact, turn.config.guardrails, others)
    return InputCheck([v for v in verdicts if not v.passed], len(contact))
