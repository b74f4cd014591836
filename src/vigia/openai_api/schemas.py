"""Wire shapes of the OpenAI-compatible surface (unknown OpenAI request fields are ignored)."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from vigia.engine import TokenUsage
from vigia.kit.fields import Flag
from vigia.knowledge.schemas import CitationOut

MAX_CONTENT_CHARS = 200_000
MAX_SCHEMA_CHARS = 64_000
MAX_ARGUMENT_CHARS = 100_000
TOOL_NAME = r"^[a-zA-Z0-9_-]{1,64}$"


class ContentPart(BaseModel):
    model_config = ConfigDict(extra="ignore")

    type: str = Field(max_length=32)
    text: str | None = Field(default=None, max_length=MAX_CONTENT_CHARS)


def _small_json(value: dict[str, Any] | None) -> dict[str, Any] | None:
    if value is not None and len(json.dumps(value)) > MAX_SCHEMA_CHARS:
        raise ValueError(f"longer than {MAX_SCHEMA_CHARS} characters as JSON")
    return value


class FunctionCall(BaseModel):
    """A function call as OpenAI writes it: the name and the arguments as JSON text."""

    model_config = ConfigDict(extra="ignore")

    name: str = Field(pattern=TOOL_NAME)
    arguments: str = Field(default="", max_length=MAX_ARGUMENT_CHARS)


class ToolCallIn(BaseModel):
    """A tool call of an assistant message in the history a client sends."""

    model_config = ConfigDict(extra="ignore")

    id: str = Field(min_length=1, max_length=64)
    type: Literal["function"] = "function"
    function: FunctionCall


class ChatMessageIn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[ContentPart] | None = Field(default=None, max_length=MAX_CONTENT_CHARS)
    name: str | None = Field(default=None, max_length=128)
    tool_calls: list[ToolCallIn] | None = Field(default=None, max_length=128)
    tool_call_id: str | None = Field(default=None, min_length=1, max_length=64)

    def text(self) -> str:
        """The message's text; multimodal parts other than text are ignored."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text or "" for p in self.content if p.type == "text")


class FunctionDefinition(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = Field(pattern=TOOL_NAME)
    description: str = Field(default="", max_length=4000)
    parameters: dict[str, Any] | None = None
    strict: Flag | None = None

    _parameters = field_validator("parameters")(_small_json)


class ToolDefinition(BaseModel):
    """A client tool: the model may ask for it, the client runs it."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["function"]
    function: FunctionDefinition


class NamedFunction(BaseModel):
    name: str = Field(pattern=TOOL_NAME)


class NamedToolChoice(BaseModel):
    type: Literal["function"]
    function: NamedFunction


class JsonSchemaFormat(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = Field(min_length=1, max_length=64)
    description: str | None = Field(default=None, max_length=4000)
    schema_: dict[str, Any] | None = Field(default=None, alias="schema")
    strict: Flag | None = None

    _schema = field_validator("schema_")(_small_json)


class ResponseFormat(BaseModel):
    """``text``, ``json_object`` or ``json_schema`` (passed to OpenAI-compatible upstreams)."""

    model_config = ConfigDict(extra="ignore")

    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaFormat | None = None


class StreamOptions(BaseModel):
    model_config = ConfigDict(extra="ignore")

    include_usage: Flag = False


class ChatCompletionRequest(BaseModel):
    """``POST /v1/chat/completions``; temperature, max_tokens… are accepted and ignored."""

    model_config = ConfigDict(extra="ignore")

    model: str = Field(min_length=1, max_length=128)
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=500)
    stream: Flag = False
    stream_options: StreamOptions | None = None
    conversation_id: str | None = Field(default=None, min_length=1, max_length=64)
    user: Any = None
    tools: list[ToolDefinition] | None = Field(default=None, max_length=128)
    tool_choice: Literal["none", "auto", "required"] | NamedToolChoice | None = None
    parallel_tool_calls: Flag | None = None
    response_format: ResponseFormat | None = None

    @field_validator("messages")
    @classmethod
    def _ends_the_dialogue(cls, messages: list[ChatMessageIn]) -> list[ChatMessageIn]:
        check_turn(messages)
        return messages

    @field_validator("tools")
    @classmethod
    def _unique_tools(cls, tools: list[ToolDefinition] | None) -> list[ToolDefinition] | None:
        names = [t.function.name for t in tools or []]
        if len(set(names)) != len(names):
            raise ValueError("tool names must be unique")
        return tools

    @property
    def slug(self) -> str:
        """The agent slug, matched exactly (``" asistente"`` names no agent); a ``@draft``
        suffix changes nothing (the key sets the env)."""
        return slug_of(self.model)


def slug_of(model: str) -> str:
    """The agent slug an OpenAI ``model`` names: all before any ``@`` suffix, as written."""
    return model.split("@", 1)[0]


def check_turn(messages: list[ChatMessageIn]) -> None:
    """The dialogue ends with a user message, or with the results of the tool calls that
    follow the last user message (every call answered, each result answering a call)."""
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    if not users:
        raise ValueError("the messages need a user message")
    anchor = users[-1]
    if not messages[anchor].text().strip():
        raise ValueError("the last user message is empty")
    after = [m for m in messages[anchor + 1 :] if m.role not in ("system", "developer")]
    if not after:
        return
    pending: set[str] = set()
    for m in after:
        if m.role == "assistant" and m.tool_calls and not pending:
            pending = {c.id for c in m.tool_calls}
        elif m.role == "tool" and m.tool_call_id in pending:
            pending.discard(m.tool_call_id)
        elif m.role == "tool":
            raise ValueError(
                "a 'tool' message must answer a call of the assistant message before it"
            )
        else:
            raise ValueError(
                "after the last user message only assistant tool calls and their results may follow"
            )
    if after[-1].role != "tool" or pending:
        raise ValueError("every tool call of the assistant message needs a 'tool' result")


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


FinishReason = Literal["stop", "length", "tool_calls"]


class CalledFunction(BaseModel):
    name: str
    arguments: str


class AssistantToolCall(BaseModel):
    """A call of a client tool the model asks for (the client runs it)."""

    id: str
    type: Literal["function"] = "function"
    function: CalledFunction


class AssistantMessage(BaseModel):
    """The answer; with client tool calls, ``content`` is null when the model said nothing.

    A structured reply (``response_format`` JSON) that is not given has ``content`` null and
    the reason in ``refusal``, as OpenAI refuses (the SDKs' ``parse()`` reads it)."""

    role: Literal["assistant"] = "assistant"
    content: str | None
    refusal: str | None = Field(default=None, exclude_if=_absent_when_none)
    tool_calls: list[AssistantToolCall] | None = Field(default=None, exclude_if=_absent_when_none)


class Choice(BaseModel):
    index: int = 0
    message: AssistantMessage
    finish_reason: FinishReason = "stop"


class ChatCompletion(BaseModel):
    """``chat.completion`` with the ``sherlock`` extension."""

    id: str
    object: Literal["chat.completion"] = "chat.completion"
    created: int
    model: str
    choices: list[Choice]
    usage: TokenUsage
    sherlock: Sherlock


class FunctionCallDelta(BaseModel):
    name: str | None = Field(default=None, exclude_if=_absent_when_none)
    arguments: str


class ToolCallDelta(BaseModel):
    """A piece of a streamed tool call: ``id``, ``type`` and the name come first, then
    the arguments (as OpenAI streams ``delta.tool_calls``)."""

    index: int
    id: str | None = Field(default=None, exclude_if=_absent_when_none)
    type: Literal["function"] | None = Field(default=None, exclude_if=_absent_when_none)
    function: FunctionCallDelta


class Delta(BaseModel):
    role: Literal["assistant"] | None = Field(default=None, exclude_if=_absent_when_none)
    content: str | None = Field(default=None, exclude_if=_absent_when_none)
    refusal: str | None = Field(default=None, exclude_if=_absent_when_none)
    tool_calls: list[ToolCallDelta] | None = Field(default=None, exclude_if=_absent_when_none)


class ChunkChoice(BaseModel):
    index: int = 0
    delta: Delta
    finish_reason: FinishReason | None = None


class ChatCompletionChunk(BaseModel):
    """One ``data:`` event of a streamed completion (the stream ends with ``data: [DONE]``).

    The chunk that finishes the answer carries ``usage`` and ``sherlock``; with
    ``stream_options.include_usage`` every chunk carries ``"usage": null`` instead, and one
    more chunk with no choices follows, the only one with ``usage`` and ``sherlock``.
    """

    id: str
    object: Literal["chat.completion.chunk"] = "chat.completion.chunk"
    created: int
    model: str
    choices: list[ChunkChoice]
    usage: TokenUsage | None = None
    sherlock: Sherlock | None = Field(default=None, exclude_if=_absent_when_none)
