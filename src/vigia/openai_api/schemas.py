"""Request shapes of the OpenAI-compatible surface (unknown OpenAI fields are ignored)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

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
