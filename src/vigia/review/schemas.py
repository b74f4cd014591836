"""Wire shapes of the output-review API (field names as the spec writes them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from vigia.guardrails.verdict import Severity
from vigia.kit.fields import Integer

Verdict = Literal["approved", "rejected", "uncertain"]
Action = Literal["send", "retry", "send_with_tag", "hold"]


class ReviewRequest(BaseModel):
    """A reply an external agent wants to send, with what it was based on."""

    model_config = ConfigDict(extra="ignore")

    turnKey: str = Field(min_length=1, max_length=128)
    attempt: Integer = Field(ge=1, le=2)
    message: str = Field(max_length=4_000)
    reply: str = Field(min_length=1, max_length=8_000)
    instructions: str | None = Field(default=None, max_length=40_000)
    recentConversation: str | None = Field(default=None, max_length=3_000)
    sources: str | None = Field(default=None, max_length=20_000)
    threadId: str | None = Field(
        default=None,
        min_length=1,
        description=(
            "A conversation of the workspace, or the agent's own id for one (up to 64 "
            "characters; a new id starts a conversation of the agent). A longer id, or "
            "another workspace's conversation, is a 404."
        ),
    )


class Feedback(BaseModel):
    problemas: list[str] = Field(default_factory=list)
    afirmacoes_sem_base: list[str] = Field(default_factory=list)
    orientacao: str = ""


class Considerations(BaseModel):
    fixed: list[str] = Field(default_factory=list)
    feedback: Feedback = Field(default_factory=Feedback)


class ReviewResponse(BaseModel):
    """The review: verdict, fired checks, what the agent should do, and why."""

    verdict: Verdict
    triggered: list[str]
    severity: Severity | None
    action: Action
    considerations: Considerations
    holdingMessage: str | None
    reviewId: str
