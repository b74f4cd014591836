"""Which model generates, as the model layer sees it (no agent or domain types)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from vigia.fields import Integer, Number


class ModelSettings(BaseModel):
    """The embedded default, or an OpenAI-compatible upstream by base URL and key variable."""

    provider: Literal["embedded", "openai"] = "embedded"
    name: str = Field(default="embedded", max_length=128)
    base_url: str | None = Field(default=None, max_length=500)
    api_key_env: str | None = Field(
        default=None,
        max_length=128,
        description="Name of the environment variable that holds the upstream key.",
    )
    temperature: Number = Field(default=0.2, ge=0, le=2)
    max_tokens: Integer = Field(default=800, ge=1, le=32_000)
