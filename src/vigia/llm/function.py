"""A model whose answer a Python function computes: the fake model for tests and demos.

Like pydantic-ai's ``FunctionModel``: the function gets the ``ModelRequest`` and returns the
whole answer, or an iterable of text pieces to stream. Usage is counted as the embedded
model counts it. Use it with ``vigia.llm.registry.override_model``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from vigia.llm.protocol import ModelEvent, ModelRequest, TextChunk, Usage
from vigia.llm.tokens import count_tokens, prompt_tokens

AnswerFunction = Callable[[ModelRequest], str | Iterable[str]]


class FunctionModel:
    """Streams what ``function`` answers; records every request it was given."""

    def __init__(self, function: AnswerFunction, name: str = "function") -> None:
        self.function = function
        self.name = name
        self.requests: list[ModelRequest] = []

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        self.requests.append(request)
        answer = self.function(request)
        pieces = [answer] if isinstance(answer, str) else list(answer)
        for piece in pieces:
            yield TextChunk(piece)
        completion = count_tokens("".join(pieces))
        yield Usage(prompt_tokens=prompt_tokens(request), completion_tokens=completion)

    def complete(self, request: ModelRequest) -> str:
        """The whole answer at once (as ``OpenAIChatModel.complete``)."""
        return "".join(e.text for e in self.stream(request) if isinstance(e, TextChunk))


def replying(text: str, name: str = "function") -> FunctionModel:
    """A model that always answers ``text``, streamed word by word."""
    words = text.split(" ")
    pieces = [w + " " for w in words[:-1]] + words[-1:]
    return FunctionModel(lambda _request: pieces, name)
