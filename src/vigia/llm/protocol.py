"""The one protocol every model provider speaks, and the shapes it exchanges."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

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
class ChatMessage:
    role: str
    content: str


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


@dataclass(frozen=True)
class TextChunk:
    text: str


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


ModelEvent = TextChunk | Usage


class Model(Protocol):
    """A chat model. ``stream`` yields text chunks and, last, exactly one ``Usage``."""

    name: str

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]: ...
