"""Which model generates, as the model layer sees it (no agent or domain types)."""

from __future__ import annotations

from pathlib import PurePath
from typing import Literal

from pydantic import BaseModel, Field, PrivateAttr, model_validator

from vigia.kit.fields import Integer, Number
from vigia.llm.access import UpstreamAccess

SECRET_NAME = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"


class ModelSettings(BaseModel):
    """The embedded default, an OpenAI-compatible upstream by base URL and key (a secret
    of the agent's workspace, or an environment variable the operator allows), or a local
    GGUF file by path."""

    provider: Literal["embedded", "openai", "local"] = "embedded"
    name: str = Field(default="embedded", max_length=128)
    base_url: str | None = Field(default=None, max_length=500)
    path: str | None = Field(
        default=None,
        max_length=1000,
        description="A GGUF file the operator registered (`vigia model add`), served in "
        "process by the `local` provider (docs/local-models.md).",
    )
    api_key_env: str | None = Field(
        default=None,
        max_length=128,
        description="Name of an environment variable that holds the upstream key (only those "
        "listed in VIGIA_MODEL_KEY_ENVS; never VIGIA_*).",
    )
    api_key_secret: str | None = Field(
        default=None,
        pattern=SECRET_NAME,
        description="Name of a secret of the agent's own workspace that holds the upstream key.",
    )
    temperature: Number = Field(default=0.2, ge=0, le=2)
    max_tokens: Integer = Field(default=800, ge=1, le=32_000)
    _access: UpstreamAccess | None = PrivateAttr(default=None)

    @property
    def access(self) -> UpstreamAccess | None:
        """The key and hosts resolved for this call (never serialized); None: unresolved."""
        return self._access

    def with_access(self, access: UpstreamAccess) -> ModelSettings:
        """A copy carrying ``access`` for the calls made with it."""
        copy = self.model_copy()
        copy._access = access
        return copy

    @model_validator(mode="after")
    def _path_for_local(self) -> ModelSettings:
        if self.provider == "local" and not self.path:
            raise ValueError("a local model needs the path of a GGUF file")
        if self.path and self.provider != "local":
            raise ValueError("path is for provider 'local' only")
        if self.provider == "local" and self.name == "embedded":
            self.name = PurePath(self.path or "").name[:128]  # runs and prices name the file
        return self
