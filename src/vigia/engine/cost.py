"""Cost and usage: the price table, and a meter that wraps a model's stream."""

from __future__ import annotations

from collections.abc import Iterator

from vigia.config import get_settings
from vigia.llm.metered import UsageLedger
from vigia.llm.protocol import (
    Finish,
    Model,
    ModelRequest,
    TextChunk,
    ToolCall,
    ToolCallBuffer,
    ToolCallDelta,
    Usage,
)
from vigia.llm.tokens import count_tokens, prompt_tokens


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int) -> float:
    """What the tokens cost; models missing from the table cost nothing."""
    price = get_settings().prices.get(model)
    if price is None:
        return 0.0
    return round((prompt_tokens * price.input + completion_tokens * price.output) / 1_000_000, 8)


def ledger_cost_usd(ledger: UsageLedger) -> float:
    """What the calls metered into ``ledger`` cost, each priced as its configured model."""
    total = sum(
        cost_usd(c.model, c.usage.prompt_tokens, c.usage.completion_tokens) for c in ledger.calls
    )
    return round(total, 8)


def expected_cost_usd(model: str, request: ModelRequest, max_tokens: int) -> float:
    """The most a request can cost: its prompt plus ``max_tokens`` of answer."""
    return cost_usd(model, prompt_tokens(request), max_tokens)


class Meter:
    """Wraps one model call's stream: passes the text on, gathers the tool calls, keeps the
    finish reason and the usage, and prices it.

    Providers that report no usage are estimated from the request and the text received.
    """

    def __init__(self, model: Model, request: ModelRequest) -> None:
        self.model = model
        self.request = request
        self.finish_reason: str | None = None
        self._reported: Usage | None = None
        self._text: list[str] = []
        self._calls = ToolCallBuffer()

    def stream(self) -> Iterator[TextChunk]:
        stream = self.model.stream(self.request)
        try:
            for event in stream:
                if isinstance(event, Usage):
                    self._reported = event
                elif isinstance(event, ToolCallDelta):
                    self._calls.add(event)
                    self._text.append(event.arguments)
                elif isinstance(event, Finish):
                    self.finish_reason = event.reason
                else:
                    self._text.append(event.text)
                    yield event
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The calls the model asked for (complete once the stream is read)."""
        return self._calls.calls()

    @property
    def usage(self) -> Usage:
        if self._reported is not None:
            return self._reported
        return Usage(prompt_tokens(self.request), count_tokens("".join(self._text)))

    @property
    def cost_usd(self) -> float:
        """Priced as the configured model (the one the price table names)."""
        usage = self.usage
        return cost_usd(self.request.settings.name, usage.prompt_tokens, usage.completion_tokens)
