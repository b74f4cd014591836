"""Wire shapes of the OpenAI-compatible surface (unknown OpenAI request fields are ignored)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from vigia.engine.schemas import TokenUsage

MAX_CONTENT_CHARS = 200_000


class ContentPart(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: str = Field(max_length=32)
    text: str | None = Field(default=None, max_length=MAX_CONTENT_CHARS)


class ChatMessageIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[ContentPart] | None = Field(default=None, max_length=MAX_CONTENT_CHARS)
    name: str | None = Field(default=None, max_length=128)

    def text(self) -> str:
        """The message's text; multimodal parts other than text are ignored."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text or "" for p in self.content if p.type == "text")


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")

    include_usage: bool = False


class ChatCompletionRequest(BaseModel):
    """``POST /v1/chat/completions``; temperature, max_tokens… are accepted and ignored."""

    model_config = ConfigDict(extra="ignore")

    model: str = Field(min_length=1, max_length=128)
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=500)
    stream: bool = False
    stream_options: StreamOptions | None = None
    conversation_id: str | None = Field(default=None, min_length=1, max_length=64)
    user: Any = None

    @field_validator("messages")
    @classmethod
    def _last_is_user(cls, messages: list[ChatMessageIn]) -> list[ChatMessageIn]:
        if messages[-1].role != "user":
            raise ValueError("the last message must have role 'user'")
        if not messages[-1].text().strip():
            raise ValueError("the last user message is empty")
        return messages

    @property
    def slug(self) -> str:
        """The agent slug; a ``@draft`` suffix changes nothing (the key sets the env)."""
        return self.model.split("@", 1)[0].strip()


def _absent_when_none(value: object) -> bool:
    return value is None


class ModelOut(BaseModel):
    """An agent the key can talk to, as an OpenAI ``model``; ``name`` is its display name."""

    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "vigia"
    name: str


class ModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ModelOut]


class CitationOut(BaseModel):
    """A numbered source of the answer (``[n]`` in the text)."""

    n: int
    document_id: str
    document: str
    url: str | None
    page: int | None
    heading: str | None
    snippet: str
    score: float


class Sherlock(BaseModel):
    """What the OpenAI API has no field for: conversation, run, status, sources, cost, version.

    ``version`` is the published version a production key ran, or the draft's number (the
    one publishing it would give) for a draft key; ``env`` says which. ``guardrails`` (the
    checks that fired) and ``budget_alert`` are present only when there is something to say.
    """

    conversation_id: str
    run_id: str
    status: str
    citations: list[CitationOut]
    cost_usd: float
    version: int
    handoff: bool
    env: Literal["production", "draft"]
    guardrails: list[str] | None = Field(default=None, exclude_if=_absent_when_none)
    budget_alert: Literal[True] | None = Field(default=None, exclude_if=_absent_when_none)


class AssistantMessage(BaseModel):
    role: Literal["assistant"] = "assistant"
    content: str


class Choice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: Literal["stop"] = "stop"


class ChatCompletion(BaseModel):
    """``chat.completion`` with the ``sherlock`` extension."""

    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[Choice]
    usage: TokenUsage
    sherlock: Sherlock


class Delta(BaseModel):
    role: Literal["assistant"] | None = Field(default=None, exclude_if=_absent_when_none)
    content: str | None = Field(default=None, exclude_if=_absent_when_none)


class ChunkChoice(BaseModel):
    index: int = 0
    delta: Delta
    finish_reason: Literal["stop"] | None = None


class ChatCompletionChunk(BaseModel):
    """One ``data:`` event of a streamed completion (the stream ends with ``data: [DONE]``).

    The chunk that finishes the answer carries ``usage`` and ``sherlock``; with
    ``stream_options.include_usage`` the other chunks carry ``"usage": null`` and one more
    chunk with no choices follows, with ``usage`` and ``sherlock`` again.
    """

    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str
    choices: list[ChunkChoice]
    usage: TokenUsage | None = None
    sherlock: Sherlock | None = Field(default=None, exclude_if=_absent_when_none)
