"""The metering wrapper on the ``Model`` protocol: every call through it lands in a ledger.

Model calls made outside the engine's generation (a domain's prose writer, the grounding
judge) wrap their model in ``MeteredModel`` with the ledger of the run they serve, so their
tokens reach the run's usage, its cost and the workspace budget. A provider that reports no
usage is estimated from the request and the text received, as the engine's own meter does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from vigia.llm.protocol import Model, ModelEvent, ModelRequest, TextChunk, ToolCallDelta, Usage
from vigia.llm.tokens import count_tokens, prompt_tokens


@dataclass(frozen=True)
class MeteredCall:
    """One model call: what it was for, the configured model (the price table's name), tokens."""

    purpose: str
    model: str
    usage: Usage


@dataclass
class UsageLedger:
    """The model calls made for one run, in order."""

    calls: list[MeteredCall] = field(default_factory=list)

    def record(self, purpose: str, model: str, usage: Usage) -> None:
        self.calls.append(MeteredCall(purpose, model, usage))

    @property
    def prompt_tokens(self) -> int:
        return sum(c.usage.prompt_tokens for c in self.calls)

    @property
    def completion_tokens(self) -> int:
        return sum(c.usage.completion_tokens for c in self.calls)

    @property
    def models(self) -> list[str]:
        """The models called, each once, in the order first called."""
        return list(dict.fromkeys(c.model for c in self.calls))


class MeteredModel:
    """A ``Model`` that records each call's usage in ``ledger`` under ``purpose``, also when
    the caller stops reading early or the stream fails part-way."""

    def __init__(self, model: Model, ledger: UsageLedger, purpose: str) -> None:
        self.model = model
        self.name = model.name
        self.ledger = ledger
        self.purpose = purpose

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        reported: Usage | None = None
        received: list[str] = []
        try:
            for event in self.model.stream(request):
                if isinstance(event, Usage):
                    reported = event
                elif isinstance(event, TextChunk):
                    received.append(event.text)
                elif isinstance(event, ToolCallDelta):
                    received.append(event.arguments)
                yield event
        finally:
            usage = reported or Usage(prompt_tokens(request), count_tokens("".join(received)))
            self.ledger.record(self.purpose, request.settings.name, usage)

    def complete(self, request: ModelRequest) -> str:
        """The whole answer's text (read through the metered stream)."""
        return "".join(e.text for e in self.stream(request) if isinstance(e, TextChunk))


def metered(model: Model, ledger: UsageLedger | None, purpose: str) -> Model:
    """``model`` metered into ``ledger``; unchanged when there is no run to meter into."""
    return model if ledger is None else MeteredModel(model, ledger, purpose)
