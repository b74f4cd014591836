"""Resolves an agent's model choice into a ``Model``."""

from __future__ import annotations

import os

from vigia.agents.schemas import ModelChoice
from vigia.config import get_settings
from vigia.errors import Invalid
from vigia.llm.embedded import EmbeddedModel
from vigia.llm.openai_compat import OpenAIChatModel, provider_for
from vigia.llm.protocol import Model

_EMBEDDED = EmbeddedModel()


def model_for(choice: ModelChoice) -> Model:
    """The model that serves ``choice``; the embedded default needs nothing configured."""
    if choice.provider == "embedded":
        return _EMBEDDED
    if not choice.base_url:
        raise Invalid("an OpenAI-compatible model needs a base_url")
    key = os.environ.get(choice.api_key_env) if choice.api_key_env else None
    provider = provider_for(choice.base_url, key, get_settings().upstream_timeout_s)
    return OpenAIChatModel(provider, choice.name)
