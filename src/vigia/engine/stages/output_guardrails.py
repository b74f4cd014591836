"""The output guardrails stage: each sentence of the reply is checked before it is sent."""

from __future__ import annotations

from dataclasses import replace

from vigia.engine.turn import Turn
from vigia.guardrails.checks import OutputContext, check_reply, output_guardrails_active
from vigia.guardrails.grounding import SupportIndex
from vigia.guardrails.verdict import Verdict


class OutputChecker:
    """Checks the sentences of one turn's reply; built once per turn.

    The grounding index (instructions and passages, embedded) is built on the first
    sentence and reused for the rest of the reply.
    """

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.active = output_guardrails_active(turn.config.guardrails)
        self.context = OutputContext(
            instructions=turn.config.instructions,
            sources=tuple(p.text for p in turn.passages),
            message=turn.message,
            replies=turn.config.replies.texts(),
        )
        self._index: SupportIndex | None = None

    def add_sources(self, texts: list[str]) -> None:
        """Tool results the reply may now rest on: grounding counts them as sources."""
        self.context = replace(self.context, sources=(*self.context.sources, *texts))
        self._index = None

    def _grounding_index(self) -> SupportIndex | None:
        if self.turn.config.guardrails.grounding == "off":
            return None
        if self._index is None:
            self._index = self.context.index()
        return self._index

    def check(self, sentence: str) -> list[Verdict]:
        """The verdicts that fired on ``sentence`` (none when no output check is on)."""
        if not sentence.strip() or not self.active:
            return []
        verdicts = check_reply([sentence], self.turn.config, self.context, self._grounding_index())
        return [v for v in verdicts if not v.passed]
