"""What one agent turn carries through the pipeline's stages."""

from __future__ import annotations

from dataclasses import dataclass, field

from vigia.agents.schemas import AgentConfig
from vigia.llm.protocol import ChatMessage, Passage


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


@dataclass
class Turn:
    """The turn as the stages see and fill it."""

    request: TurnRequest
    run_id: str
    config: AgentConfig
    version: int | None
    conversation_id: str
    new_conversation: bool
    history: list[ChatMessage] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)

    @property
    def message(self) -> str:
        return self.request.message

    @property
    def workspace_id(self) -> str:
        return self.request.workspace_id

    @property
    def agent_id(self) -> str:
        return self.request.agent_id
