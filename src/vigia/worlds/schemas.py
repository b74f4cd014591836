"""Wire models of the worlds surface (spec: worlds-chat-api.txt)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    field_validator,
)

from vigia.kit.fields import JsonRowId, UtcDateTime, has_control_characters
from vigia.worlds.catalog import MAX_SCOPE_PATH_LENGTH, MAX_SCOPE_PATHS

VERSION_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
MAX_MESSAGE = 8000
ScopePath = Annotated[str, StringConstraints(max_length=MAX_SCOPE_PATH_LENGTH)]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def _query_flag(value: object) -> object:
    """``true`` or ``false`` in a query string; ``yes``, ``1``, ``on``… are refused."""
    if isinstance(value, str):
        if value not in ("true", "false"):
            raise ValueError("must be true or false")
        return value == "true"
    return value


Flag = Annotated[bool, Strict()]
"""A JSON boolean: ``"yes"``, ``"true"`` and ``1`` are refused (pydantic's lax mode takes them)."""
QueryFlag = Annotated[bool, BeforeValidator(_query_flag), Strict()]
"""A boolean in a query string: ``true`` or ``false``."""


class ChatRequest(BaseModel):
    """``POST /chat`` (and the query string of ``GET /chat/stream``)."""

    message: str = Field(min_length=1, max_length=MAX_MESSAGE)
    version: str = Field(default="v1", pattern=VERSION_PATTERN)
    conversation_id: JsonRowId | None = None
    knowledge: Flag = False
    scope_paths: list[ScopePath] = Field(default_factory=list, max_length=MAX_SCOPE_PATHS)
    personal: Flag = False

    _message = field_validator("message")(_not_blank)


class LensRequestBase(BaseModel):
    version: str = Field(default="v1", pattern=VERSION_PATTERN)
    scope_paths: list[ScopePath] = Field(default_factory=list, max_length=MAX_SCOPE_PATHS)


class QARequest(LensRequestBase):
    question: str = Field(min_length=1, max_length=MAX_MESSAGE)

    _question = field_validator("question")(_not_blank)


class TroubleshootRequest(LensRequestBase):
    symptom: str = Field(min_length=1, max_length=MAX_MESSAGE)

    _symptom = field_validator("symptom")(_not_blank)


class RouteOut(BaseModel):
    lens: str
    reason: str
    path: list[str]


class ScopeOut(BaseModel):
    version: str
    scope_paths: list[str]
    source: Literal["explicit", "all"]


class SourceOut(BaseModel):
    doc_id: str
    line: int


class PersonalHit(BaseModel):
    rel_path: str
    line: int
    text: str


class ChatEnvelope(BaseModel):
    """The full answer envelope of a chat turn."""

    headline: str
    lens: str
    route: RouteOut
    scope: ScopeOut
    sources: list[SourceOut]
    conversation_id: int
    personal_sources: list[PersonalHit] | None = None


class LensResponse(BaseModel):
    """``/qa/run`` and ``/troubleshoot/run``: the envelope without a conversation, plus the
    structured facts the lens found (``details``)."""

    headline: str
    lens: str
    route: RouteOut
    scope: ScopeOut
    sources: list[SourceOut]
    details: dict[str, Any]


class ConversationSummary(BaseModel):
    id: int
    title: str
    created_at: UtcDateTime
    updated_at: UtcDateTime
    pinned: bool
    origin: Literal["own", "received_share"]
    version: str
    shared_by: str | None = None


class ConversationList(BaseModel):
    conversations: list[ConversationSummary]


class ConversationMeta(BaseModel):
    id: int
    title: str
    origin: Literal["own", "received_share"]
    pinned: bool
    created_at: UtcDateTime
    version: str
    shared_by: str | None = None


class MessageOut(BaseModel):
    role: Literal["user", "assistant"]
    content: str
    created_at: UtcDateTime
    answer: dict[str, Any] | None = None


class ConversationDetail(BaseModel):
    conversation: ConversationMeta
    messages: list[MessageOut]


class RenameRequest(BaseModel):
    title: str = Field(max_length=1000)

    @field_validator("title")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if has_control_characters(value):
            raise ValueError("a title is one line: no newline, tab or other control character")
        return value


class PinRequest(BaseModel):
    pinned: Flag = True


class ShareRequest(BaseModel):
    username: str = Field(min_length=1, max_length=64)


class OkOut(BaseModel):
    ok: bool = True
    id: int


class RenameOut(OkOut):
    title: str


class PinOut(OkOut):
    pinned: bool


class ShareOut(OkOut):
    shared_with: str
    share_id: int


class PersonalFileOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    rel_path: str
    size: int
    created_at: UtcDateTime


class PersonalFileList(BaseModel):
    files: list[PersonalFileOut]


class UploadedFileOut(BaseModel):
    rel_path: str
    size: int


class NodeEvent(BaseModel):
    """A thinking step of the turn: ``active`` when it starts, ``done`` when it ends."""

    type: Literal["node"] = "node"
    id: str
    kind: Literal["think", "tool"]
    label: str
    detail: str
    status: Literal["active", "done"]


class AnswerDeltaEvent(BaseModel):
    """A piece of the answer's text, in order."""

    type: Literal["answer_delta"] = "answer_delta"
    text: str


class AnswerEvent(BaseModel):
    """The last event of a turn: the full envelope, as ``POST /chat`` returns it."""

    type: Literal["answer"] = "answer"
    conversation_id: int
    message: ChatEnvelope


class ErrorEvent(BaseModel):
    """A turn that failed after the stream started."""

    type: Literal["error"] = "error"
    detail: str


TurnEvent = NodeEvent | AnswerDeltaEvent | AnswerEvent
StreamEvent = TurnEvent | ErrorEvent
