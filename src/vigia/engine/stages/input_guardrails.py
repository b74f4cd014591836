"""The input guardrails stage: checks on what the client sent before anything reaches the model.

Every message of the request is checked with every input check, whatever its role — the
new one, the history an OpenAI-style client resends (its own earlier replies included: the
client wrote them) and the text of assistant messages after the new one; verdicts are
cached by message hash (``guardrails.verdict_cache``), so resent history costs nothing. The
client's tool results are screened by the tools stage (withheld, not blocking).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vigia.engine.turn import Turn
from vigia.guardrails.verdict import Verdict
from vigia.guardrails.verdict_cache import check_messages


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


def sent_texts(turn: Turn) -> list[str]:
    """The texts the client sent for the turn, in order: the resent history (every role),
    the new message, then what assistant messages after it say (tool results aside)."""
    history = [m.content for m in turn.request.supplied_history or []]
    after = [m.content for m in turn.request.continuation if m.role != "tool" and m.content]
    return [*history, turn.message, *after]


def check_input(turn: Turn) -> InputCheck:
    """Runs the agent's input guardrails on every message the client sent for the turn.

    In the verdicts' ``message`` detail, positions count ``sent_texts`` from 0.
    """
    texts = sent_texts(turn)
    verdicts = check_messages(texts, turn.config.guardrails)
    return InputCheck([v for v in verdicts if not v.passed], len(texts))
