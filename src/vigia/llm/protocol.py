"""The one protocol every model provider speaks, and the shapes it exchanges."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from vigia.llm.settings import ModelSettings


@dataclass(frozen=True)
class Passage:
    """A retrieved piece of knowledge the model may cite as ``[n]`` (n = position + 1)."""

    text: str
    document_id: str
    document: str
    score: float
    url: str | None = None
    page: int | None = None
    heading: str | None = None
    chunk_id: str | None = None


@dataclass(frozen=True)
class ToolSpec:
    """A function the model may ask to call: its name, what it does, its JSON-schema input."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)
    strict: bool | None = None


@dataclass(frozen=True)
class ToolCall:
    """A call the model asked for; ``arguments`` is the JSON text it wrote (maybe invalid)."""

    id: str
    name: str
    arguments: str


def openai_tool_calls(calls: tuple[ToolCall, ...] | list[ToolCall]) -> list[dict[str, Any]]:
    """Calls as OpenAI writes them in an assistant message (and as conversations store them)."""
    return [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in calls
    ]


def new_call_id() -> str:
    """An id for a call whose provider gave none (OpenAI's ``call_…`` shape)."""
    return "call_" + secrets.token_hex(12)


@dataclass(frozen=True)
class ChatMessage:
    """A message of the dialogue.

    ``role`` is ``user``, ``assistant``, ``operator`` (a human's reply, shown to models as
    the assistant's) or ``tool``. An assistant message may carry ``tool_calls`` (its
    ``content`` is then often empty); a tool message answers the call ``tool_call_id``.
    """

    role: str
    content: str
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None


@dataclass(frozen=True)
class ModelRequest:
    """What a model gets for one turn: instructions, memory, knowledge and the message."""

    instructions: str
    message: str
    history: list[ChatMessage] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    no_answer: str = ""
    """What to answer when the passages and instructions do not answer the message."""
    greeting: str = ""
    settings: ModelSettings = field(default_factory=ModelSettings)
    language: str = "es"
    incremental: bool = True
    """False when the caller wants the whole answer at once (providers may skip streaming)."""
    continuation: list[ChatMessage] = field(default_factory=list)
    """The turn's messages after ``message``: assistant tool calls and the tools' results."""
    tools: list[ToolSpec] = field(default_factory=list)
    tool_choice: str | dict[str, Any] | None = None
    """OpenAI's ``tool_choice`` (``none``, ``auto``, ``required`` or a named function)."""
    parallel_tool_calls: bool | None = None
    response_format: dict[str, Any] | None = None
    """OpenAI's ``response_format`` (``json_object`` or ``json_schema``), passed through."""


@dataclass(frozen=True)
class TextChunk:
    text: str


@dataclass(frozen=True)
class ToolCallDelta:
    """A streamed piece of a tool call: the call at ``index`` gets its id and name once,
    then its arguments in fragments (as OpenAI's ``delta.tool_calls`` items)."""

    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""


@dataclass(frozen=True)
class Finish:
    """Why the model stopped: ``stop``, ``length``, ``tool_calls`` or ``content_filter``."""

    reason: str


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


ModelEvent = TextChunk | ToolCallDelta | Finish | Usage


MAX_CALL_ID = 64


class ToolCallBuffer:
    """Assembles streamed ``ToolCallDelta``s into whole calls, in index order (an id longer
    than ``MAX_CALL_ID`` is replaced: conversations store at most that)."""

    def __init__(self) -> None:
        self._ids: dict[int, str] = {}
        self._names: dict[int, str] = {}
        self._arguments: dict[int, list[str]] = {}

    def add(self, delta: ToolCallDelta) -> None:
        if delta.id and len(delta.id) <= MAX_CALL_ID:
            self._ids[delta.index] = delta.id
        if delta.name and not self._names.get(delta.index):
            self._names[delta.index] = delta.name
        self._arguments.setdefault(delta.index, []).append(delta.arguments)

    def calls(self) -> list[ToolCall]:
        """The calls received so far; a call without a name is dropped, one without an id
        gets a new one."""
        named = [i for i in sorted(self._arguments) if self._names.get(i)]
        return [
            ToolCall(self._ids.setdefault(i, new_call_id()), self._names[i], self._joined(i))
            for i in named
        ]

    def _joined(self, index: int) -> str:
        return "".join(self._arguments[index])


class Model(Protocol):
    """A chat model. ``stream`` yields text chunks, tool-call deltas, at most one ``Finish``
    and, last, exactly one ``Usage``."""

    name: str

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]: ...
