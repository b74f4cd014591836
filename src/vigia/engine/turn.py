"""What one agent turn carries through the pipeline's stages: its request and its state."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from vigia.agents.schemas import AgentConfig
from vigia.conversations.marks import InputMarks
from vigia.engine.trace import Trace
from vigia.kit.turn_status import TurnStatus
from vigia.llm.metered import UsageLedger
from vigia.llm.protocol import ChatMessage, Passage, ToolSpec


@dataclass
class TurnRequest:
    """A turn as a surface hands it to the engine."""

    workspace_id: str
    agent_id: str
    message: str
    channel: str = "openai"
    key_id: str | None = None
    env: str = "production"
    conversation_id: str | None = None
    supplied_history: list[ChatMessage] | None = None
    streamed: bool = False
    continuation: list[ChatMessage] = field(default_factory=list)
    """The client's messages after ``message``: assistant tool calls and the tools' results."""
    tools: list[ToolSpec] = field(default_factory=list)
    """Client tools: the model may ask for them; the client runs them (docs/tools.md)."""
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    response_format: dict[str, Any] | None = None

    @property
    def structured(self) -> bool:
        """Whether the client asked for JSON (``json_object`` or ``json_schema``)."""
        return (self.response_format or {}).get("type") in ("json_object", "json_schema")


@dataclass(frozen=True)
class EarlyAnswer:
    """A turn that ends before generation: blocked input, paused budget or handoff."""

    status: TurnStatus
    content: str = ""


@dataclass
class Turn:
    """The turn as the stages see and fill it; all per-turn state lives here."""

    request: TurnRequest
    run_id: str
    config: AgentConfig
    version: int | None
    conversation_id: str
    new_conversation: bool
    history: list[ChatMessage] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    trace: Trace = field(default_factory=Trace)
    started: float = field(default_factory=time.perf_counter)
    early: EarlyAnswer | None = None
    budget_alert: bool = False
    reserved_usd: float = 0.0
    """Expected cost held against the workspace budget until the turn is settled."""
    triggered: list[str] = field(default_factory=list)
    """Names of the guardrails that fired, in order, each once."""
    continuation: list[ChatMessage] = field(default_factory=list)
    """What the model sees after the user's message: tool calls and results (a withheld
    result replaced by its notice), the client's and then the engine's own."""
    unsaved: list[ChatMessage] | None = None
    """The turn's messages the conversation does not hold yet; None: the user's message."""
    produced: list[ChatMessage] = field(default_factory=list)
    """Messages the engine added this turn (tool calls and results) before the answer."""
    tool_hosts: list[str] = field(default_factory=list)
    """The workspace's tool hosts (read when the agent has tools)."""
    input_marks: InputMarks | None = None
    """What the input guardrails said of the message, stored with it (None: none fired)."""
    hands_off: bool = False
    """The customer asked for a person: the turn hands the conversation to the team."""
    ledger: UsageLedger = field(default_factory=UsageLedger)
    """Model calls besides generation (the grounding judge): added to the run's usage."""

    @property
    def message(self) -> str:
        return self.request.message

    @property
    def uses_tools(self) -> bool:
        """Whether tools take part: the agent's, the client's, or results the client sent."""
        return bool(self.config.tools or self.request.tools or self.request.continuation)

    @property
    def workspace_id(self) -> str:
        return self.request.workspace_id

    @property
    def agent_id(self) -> str:
        return self.request.agent_id

    def note_fired(self, names: list[str]) -> None:
        """Records guardrails that fired (each name once)."""
        self.triggered += [n for n in names if n not in self.triggered]

    @property
    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000
