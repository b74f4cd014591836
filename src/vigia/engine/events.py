"""Typed events the engine yields; each surface translates them into its wire format."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vigia.kit.turn_status import TurnStatus
from vigia.llm.protocol import ToolCall


@dataclass(frozen=True)
class Citation:
    """A numbered source used in the answer, as the spec's ``citations`` items."""

    n: int
    document_id: str
    document: str
    snippet: str
    score: float
    url: str | None = None
    page: int | None = None
    heading: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "document_id": self.document_id,
            "document": self.document,
            "url": self.url,
            "page": self.page,
            "heading": self.heading,
            "snippet": self.snippet,
            "score": round(self.score, 4),
        }


@dataclass(frozen=True)
class TextDelta:
    """A checked piece of the answer (a sentence when the output is guarded).

    ``refusal``: the text stands in for a structured reply that is not given (a blocked
    check, a paused budget): OpenAI's ``refusal``, never the JSON ``content``.
    """

    text: str
    refusal: bool = False


@dataclass(frozen=True)
class ClientToolCalls:
    """The model asked for tools the client declared: the client runs them and sends the
    results back; the turn ends after this (``finish_reason`` ``tool_calls``)."""

    calls: list[ToolCall]


@dataclass(frozen=True)
class TurnResult:
    """The last event of every turn: what happened, what it cost, where it is stored."""

    status: TurnStatus
    content: str
    run_id: str
    conversation_id: str
    version: int | None
    env: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    citations: list[Citation] = field(default_factory=list)
    handoff: bool = False
    triggered: list[str] = field(default_factory=list)
    budget_alert: bool = False
    tool_calls: list[ToolCall] = field(default_factory=list)
    """Calls of client tools the turn ended with (then ``finish_reason`` is ``tool_calls``)."""
    finish_reason: str = "stop"
    """``stop``, ``length`` (the model ran out of ``max_tokens``) or ``tool_calls``."""
    refusal: bool = False
    """``content`` is the refusal of a structured reply (see ``TextDelta.refusal``)."""


EngineEvent = TextDelta | ClientToolCalls | TurnResult
