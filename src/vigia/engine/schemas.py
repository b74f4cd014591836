"""Wire shapes of run traces (admin API and ``vigia runs show``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from vigia.kit.wire_types import Timestamp


class TokenUsage(BaseModel):
    """Tokens a run read and wrote, as the OpenAI ``usage`` object counts them."""

    prompt_tokens: int
    completion_tokens: int
    total_tokens: int

    @classmethod
    def of(cls, prompt_tokens: int, completion_tokens: int) -> TokenUsage:
        return cls(
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            total_tokens=prompt_tokens + completion_tokens,
        )


class RunStageOut(BaseModel):
    """One traced stage of a run."""

    model_config = ConfigDict(from_attributes=True)

    name: str
    started_at: Timestamp
    duration_ms: float
    outcome: str
    detail: dict[str, Any]


class RunOut(BaseModel):
    """One agent turn: who ran it, with which version, what it cost, and its stages."""

    id: str
    workspace_id: str
    agent_id: str | None
    conversation_id: str | None
    channel: str
    env: str
    version: int | None
    status: str
    model: str
    streamed: bool
    usage: TokenUsage
    cost_usd: float
    budget_alert: bool
    duration_ms: float
    error: str | None
    trace_id: str | None = None
    """The OpenTelemetry trace the run was served in (None while tracing is off)."""
    created_at: Timestamp
    stages: list[RunStageOut]
