"""Resolves model settings into a ``Model``; tests may override it in-process.

A ``local`` model is a registered GGUF file served in this process (``local_models``).

An upstream is called only with the access resolved for it (``ModelSettings.with_access``):
without one, or with a refused one, the model refuses every call and nothing is sent.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from vigia.config import get_settings
from vigia.errors import Invalid
from vigia.llm.embedded import EmbeddedModel
from vigia.llm.local_models import local_model_for
from vigia.llm.openai_compat import OpenAIChatModel, provider_for
from vigia.llm.protocol import Model
from vigia.llm.refused import RefusedModel
from vigia.llm.settings import ModelSettings

_EMBEDDED = EmbeddedModel()
_overrides: dict[str | None, Model] = {}
_lock = threading.Lock()


def model_for(settings: ModelSettings) -> Model:
    """The model that serves ``settings``; the embedded default needs nothing configured."""
    if _overrides:
        override = _overrides.get(settings.name) or _overrides.get(None)
        if override is not None and settings.provider != "embedded":
            return override
    if settings.provider == "embedded":
        return _EMBEDDED
    if settings.provider == "local":
        return local_model_for(settings)
    if not settings.base_url:
        raise Invalid("an OpenAI-compatible model needs a base_url")
    access = settings.access
    if access is None:
        return RefusedModel(settings.name, "the model's key and hosts were not resolved")
    if access.refused is not None:
        return RefusedModel(settings.name, access.refused)
    timeout = get_settings().upstream_timeout_s
    provider = provider_for(settings.base_url, access.api_key, timeout, access.hosts)
    return OpenAIChatModel(provider, settings.name)


@contextmanager
def override_model(model: Model, name: str | None = None) -> Iterator[Model]:
    """Serves upstream agents whose model is called ``name`` (any, when None) with ``model``.

    For tests and evaluations in this process: the agent keeps its configuration, only the
    model behind it is swapped (the embedded default is never overridden).
    """
    with _lock:
        previous = _overrides.get(name)
        _overrides[name] = model
    try:
        yield model
    finally:
        with _lock:
            if previous is None:
                _overrides.pop(name, None)
            else:
                _overrides[name] = previous
