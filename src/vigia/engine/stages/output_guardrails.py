"""The output guardrails stage: each sentence of the reply is checked before it is sent."""

from __future__ import annotations

from dataclasses import replace

from vigia.engine.turn import Turn
from vigia.guardrails.checks import (
    OutputContext,
    check_reply,
    output_guardrails_active,
    redact_personal_data,
)
from vigia.guardrails.grounding import SupportIndex
from vigia.guardrails.verdict import Verdict
from vigia.language import sentences


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

    @property
    def reads_personal_data(self) -> bool:
        return self.turn.config.guardrails.personal_data != "off"

    def check(self, text: str) -> list[Verdict]:
        """The verdicts that fired on ``text``, one sentence or a few released together
        (none when no output check is on); personal data is read across their joins."""
        if not text.strip() or not self.active:
            return []
        parts = sentences(text) or [text]
        verdicts = check_reply(parts, self.turn.config, self.context, self._grounding_index())
        return [v for v in verdicts if not v.passed]

    def redact_snippet(self, snippet: str) -> str:
        """A cited passage as the contact may see it: in ``block`` mode, the personal data
        that a reply sentence could not show is replaced by ``[kind]``."""
        if self.turn.config.guardrails.personal_data != "block":
            return snippet
        return redact_personal_data(snippet, self.context)
