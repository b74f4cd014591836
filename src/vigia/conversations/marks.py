"""What the input guardrails said of a turn's message, as its stored messages keep it.

A message a check blocked is stored (the operator sees every customer message) but is never
model input, nor is the refusal it got; a message a check only flagged is model input as
usual. Both carry the names of the checks that fired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Moderation = Literal["blocked", "flagged", "refusal"]
"""A stored message's mark: input a check ``blocked``, input a check ``flagged`` (fired, not
blocking), or the ``refusal`` a blocked message got."""
MODERATIONS: tuple[Moderation, ...] = ("blocked", "flagged", "refusal")
UNMARKED: dict[str, Any] = {"moderation": None, "guardrails": None, "flagged": False}


@dataclass(frozen=True)
class InputMarks:
    """The input guardrails' verdict on a turn: ``blocked`` or ``flagged``, and which fired."""

    verdict: Literal["blocked", "flagged"]
    guardrails: tuple[str, ...]

    @classmethod
    def of(cls, fired: list[tuple[str, bool]]) -> InputMarks | None:
        """The marks of the checks that fired, as ``(name, blocking)``; None when none did."""
        if not fired:
            return None
        names = tuple(dict.fromkeys(name for name, _ in fired))
        blocked = any(blocking for _, blocking in fired)
        return cls("blocked" if blocked else "flagged", names)

    def columns(self, role: str) -> dict[str, Any]:
        """The ``moderation``, ``guardrails`` and ``flagged`` values of a message of the turn
        with ``role``: the contact's carries the verdict, a blocked turn's reply is its
        refusal; other messages carry nothing."""
        if role == "user":
            moderation: Moderation = self.verdict
        elif role == "assistant" and self.verdict == "blocked":
            moderation = "refusal"
        else:
            return UNMARKED
        return {
            "moderation": moderation,
            "guardrails": list(self.guardrails),
            "flagged": self.verdict == "blocked",
        }
