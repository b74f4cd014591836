"""The local model files an app has loaded: each loaded once, shared by every agent naming it.

``create_app`` keeps one ``LocalModels`` in ``app.state.local_models`` and binds it to each
request it serves (``LocalModelsMiddleware``), so a turn finds the app's loaded models in a
context variable, as worker threads inherit it. Code outside an app (the command line, a
script) may bind its own with ``serving``; with none bound, a call loads its file for itself
and lets it go afterwards.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from starlette.types import ASGIApp, Receive, Scope, Send

from vigia.config import Settings, get_settings
from vigia.llm.local import LocalBackend, LocalOptions, default_threads
from vigia.llm.local_catalog import require_registered
from vigia.llm.openai_compat import ChatTransport, OpenAIChatModel
from vigia.llm.settings import ModelSettings

_BOUND: ContextVar[LocalModels | None] = ContextVar("vigia_local_models", default=None)


def local_options(settings: Settings) -> LocalOptions:
    """The operator's choices (``VIGIA_LOCAL_*``), the thread count chosen for the machine."""
    return LocalOptions(
        threads=settings.local_threads or default_threads(),
        parallel=settings.local_parallel,
        queue=settings.local_queue,
        context=settings.local_context,
    )


Loader = Callable[[Path, LocalOptions], ChatTransport]


class LocalModels:
    """Loaded model files by absolute path; a file is loaded on its first use (by ``load``:
    llama.cpp, or what a test puts in its place)."""

    def __init__(self, options: LocalOptions, load: Loader = LocalBackend) -> None:
        self.options = options
        self._load = load
        self._loaded: dict[Path, ChatTransport] = {}
        self._lock = threading.Lock()

    def backend(self, file: Path) -> ChatTransport:
        """The loaded ``file`` (one load at a time: a second caller waits for it)."""
        with self._lock:
            backend = self._loaded.get(file)
            if backend is None:
                backend = self._loaded[file] = self._load(file, self.options)
            return backend

    @property
    def loaded(self) -> list[Path]:
        return list(self._loaded)


@contextmanager
def serving(models: LocalModels) -> Iterator[LocalModels]:
    """Turns run in this context (and the threads it starts with it) use ``models``."""
    token = _BOUND.set(models)
    try:
        yield models
    finally:
        _BOUND.reset(token)


class LocalModelsMiddleware:
    """Binds the app's ``LocalModels`` (``app.state.local_models``) to every request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with serving(scope["app"].state.local_models):
            await self.app(scope, receive, send)


def local_model_for(settings: ModelSettings) -> OpenAIChatModel:
    """The chat model of a registered GGUF file (``Invalid`` when it is missing, not GGUF or
    not registered), named as configured (by default after the file)."""
    file = require_registered(settings.path or "")
    models = _BOUND.get() or LocalModels(local_options(get_settings()))
    return OpenAIChatModel(models.backend(file), settings.name)
