"""Cost and usage: the price table, and a meter that wraps a model's stream."""

from __future__ import annotations

from collections.abc import Iterator

from vigia.config import get_settings
from vigia.llm.protocol import Model, ModelRequest, TextChunk, Usage
from vigia.llm.tokens import count_tokens, prompt_tokens


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int) -> float:
    """What the tokens cost; models missing from the table cost nothing."""
    price = get_settings().prices.get(model)
    if price is None:
        return 0.0
    return round((prompt_tokens * price.input + completion_tokens * price.output) / 1_000_000, 8)


def expected_cost_usd(model: str, request: ModelRequest, max_tokens: int) -> float:
    """The most a request can cost: its prompt plus ``max_tokens`` of answer."""
    return cost_usd(model, prompt_tokens(request), max_tokens)


class Meter:
    """Wraps a model's stream: passes the text on, keeps the usage and prices it.

    Providers that report no usage are estimated from the request and the text received.
    """

    def __init__(self, model: Model, request: ModelRequest) -> None:
        self.model = model
        self.request = request
        self._reported: Usage | None = None
        self._text: list[str] = []

    def stream(self) -> Iterator[TextChunk]:
        stream = self.model.stream(self.request)
        try:
            for event in stream:
                if isinstance(event, Usage):
                    self._reported = event
                else:
                    self._text.append(event.text)
                    yield event
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()

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
