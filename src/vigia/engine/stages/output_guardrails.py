"""The output guardrails stage: each sentence of the reply is checked before it is sent
(a structured reply is checked whole, ``vigia.guardrails.structured``).

The evidence a reply may rest on: the agent's instructions, the knowledge passages and
every tool result of the turn, the client's (``tool`` messages it sent) and the agent's
(HTTP tools run by the engine); a result the injection check withheld is not evidence.
"""

from __future__ import annotations

from dataclasses import replace

from vigia.engine.stages.tool_calls import WITHHELD
from vigia.engine.turn import Turn
from vigia.guardrails.checks import (
    OutputContext,
    check_reply,
    output_guardrails_active,
    redact_personal_data,
)
from vigia.guardrails.grounding import SupportIndex
from vigia.guardrails.structured import check_structured, decode, structured_context
from vigia.guardrails.verdict import Verdict
from vigia.language import sentences


class OutputChecker:
    """Checks the sentences of one turn's reply; built once per turn.

    The grounding index (instructions, passages and tool results, embedded) is built on
    the first sentence and reused for the rest of the reply.
    """

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.active = output_guardrails_active(turn.config.guardrails)
        client_results = [
            m.content for m in turn.continuation if m.role == "tool" and m.content != WITHHELD
        ]
        self.context = OutputContext(
            instructions=turn.config.instructions,
            sources=(*(p.text for p in turn.passages), *client_results),
            message=turn.message,
            replies=turn.config.replies.texts(),
            ledger=turn.ledger,
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

    def check_whole(self, text: str) -> list[Verdict]:
        """The verdicts that fired on a whole structured reply: its JSON values are checked
        (``check_structured``); a reply that is not JSON is checked as prose."""
        value = decode(text)
        if value is None:
            return self.check(text)
        if not self.active and self.turn.config.guardrails.injection == "off":
            return []
        context = structured_context(self.context)
        verdicts = check_structured(value, self.turn.config, context)
        return [v for v in verdicts if not v.passed]

    def redact_snippet(self, snippet: str) -> str:
        """A cited passage as the contact may see it: in ``block`` mode, the personal data
        that a reply sentence could not show is replaced by ``[kind]``."""
        if self.turn.config.guardrails.personal_data != "block":
            return snippet
        return redact_personal_data(snippet, self.context)
