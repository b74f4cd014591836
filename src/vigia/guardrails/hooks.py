"""The guardrail stages the engine calls. Each returns the verdicts of the checks that ran."""

from __future__ import annotations

from vigia.engine.turn import Turn
from vigia.guardrails.verdict import Verdict


def check_input(turn: Turn) -> list[Verdict]:
    """Input guardrails on the user's message, before anything reaches the model."""
    return []


def check_output_sentence(turn: Turn, sentence: str, sent_before: str) -> list[Verdict]:
    """Output guardrails on one sentence of the reply, before it is sent."""
    return []
