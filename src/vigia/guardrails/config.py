"""Per-agent guardrail settings, stored inside the agent's config."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from vigia.kit.fields import Integer

Mode = Literal["block", "log", "off"]
Sensitivity = Literal["low", "medium", "high"]


class BlockedTopic(BaseModel):
    """A topic the agent must not discuss, described by its owner.

    Write the description as short phrases separated by commas ("partidos políticos,
    elecciones, candidatos"): each phrase is matched on its own.
    """

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=1, max_length=80)
    description: str = Field(default="", max_length=500)


class GuardrailsConfig(BaseModel):
    """Which checks run on the way in and out, each in ``block``, ``log`` or ``off`` mode."""

    injection: Mode = "block"
    injection_sensitivity: Sensitivity = Field(
        default="medium",
        description="Where the injection threshold sits on the detector's ROC: 'low' blocks "
        "fewer messages (about 1 % of benign prompts), 'medium' about 3 %, 'high' about 8 %.",
    )
    length: Mode = "block"
    max_message_chars: Integer = Field(default=4000, ge=1, le=100_000)
    topics: Mode = "block"
    blocked_topics: list[BlockedTopic] = Field(default_factory=list, max_length=50)
    grounding: Mode = "block"
    grounding_judge: Literal["embedded", "llm"] = Field(
        default="embedded",
        description="'llm' asks the agent's OpenAI-compatible model to judge grounding.",
    )
    personal_data: Mode = "block"
