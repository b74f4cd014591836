"""A model whose answer a Python function computes: the fake model for tests and demos.

Like pydantic-ai's ``FunctionModel``: the function gets the ``ModelRequest`` and returns the
whole answer, or an iterable of pieces to stream: text, or ``ToolCall``s when the fake
upstream asks for tools (each call streams as OpenAI streams it: id and name first, then
its arguments in two fragments, and the model finishes with ``tool_calls``). Usage is
counted as the embedded model counts it. Use it with ``vigia.llm.registry.override_model``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from vigia.llm.protocol import (
    Finish,
    ModelEvent,
    ModelRequest,
    TextChunk,
    ToolCall,
    ToolCallDelta,
    Usage,
    new_call_id,
)
from vigia.llm.tokens import count_tokens, prompt_tokens

Answer = str | Iterable[str | ToolCall]
AnswerFunction = Callable[[ModelRequest], Answer]


def calling(name: str, arguments: dict[str, Any] | None = None, call_id: str = "") -> ToolCall:
    """A tool call for a ``FunctionModel`` answer (a fresh ``call_…`` id when none is given)."""
    return ToolCall(call_id or new_call_id(), name, json.dumps(arguments or {}))


def _deltas(index: int, call: ToolCall) -> Iterator[ToolCallDelta]:
    half = len(call.arguments) // 2
    yield ToolCallDelta(index, call.id, call.name, "")
    yield ToolCallDelta(index, arguments=call.arguments[:half])
    yield ToolCallDelta(index, arguments=call.arguments[half:])


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
        calls = 0
        produced = []
        for piece in pieces:
            if isinstance(piece, ToolCall):
                yield from _deltas(calls, piece)
                calls += 1
                produced.append(piece.name + piece.arguments)
            else:
                yield TextChunk(piece)
                produced.append(piece)
        yield Finish("tool_calls" if calls else "stop")
        completion = count_tokens("".join(produced))
        yield Usage(prompt_tokens=prompt_tokens(request), completion_tokens=completion)

    def complete(self, request: ModelRequest) -> str:
        """The whole answer at once (as ``OpenAIChatModel.complete``)."""
        return "".join(e.text for e in self.stream(request) if isinstance(e, TextChunk))


def replying(text: str, name: str = "function") -> FunctionModel:
    """A model that always answers ``text``, streamed word by word."""
    words = text.split(" ")
    pieces = [w + " " for w in words[:-1]] + words[-1:]
    return FunctionModel(lambda _request: pieces, name)
