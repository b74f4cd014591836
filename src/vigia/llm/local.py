"""One GGUF file served in this process by llama.cpp (the ``local`` extra: xllamacpp).

``LocalBackend`` speaks the chat API shape that ``OpenAIChatModel`` sends (it is that
model's transport), so a local model streams text, tool calls, the finish reason and usage
exactly as an upstream does; the chat template is the file's own (llama.cpp's Jinja), and
``response_format`` JSON is grammar-constrained by llama.cpp.

Generation runs on llama.cpp's own thread; the calling worker thread waits for its tokens.
A bounded queue (``RequestQueue``) admits ``parallel`` requests at once and lets ``queue``
more wait; one more is refused at once with 503 and ``Retry-After``.
"""

from __future__ import annotations

import json
import math
import os
import queue
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vigia.errors import UpstreamError

_DONE = object()


@dataclass(frozen=True)
class LocalOptions:
    """How each model file is run: llama.cpp threads, requests at once, waiting room, context."""

    threads: int
    parallel: int = 1
    queue: int = 4
    context: int = 4096


def default_threads(cores: int | None = None) -> int:
    """1 thread on two cores or fewer (measured: 2 threads on 2 busy cores are ten times
    slower, docs/local-models.md), else half the cores."""
    cores = cores or os.cpu_count() or 1
    return 1 if cores <= 2 else cores // 2


class LocalModelBusy(UpstreamError):
    """Every slot of a local model is taken and its queue is full."""

    status = 503
    code = "overloaded"


class RequestQueue:
    """Admits ``running`` requests at once and ``waiting`` more; refuses the rest."""

    def __init__(self, running: int, waiting: int) -> None:
        self.capacity = running + waiting
        self._running = running
        self._slots = threading.BoundedSemaphore(running)
        self._lock = threading.Lock()
        self._held = 0
        self._seconds = 5.0  # a request's duration, averaged; guessed until one ends

    def retry_after_s(self) -> int:
        """About when a slot frees up: the queue ahead of a newcomer times a request's time."""
        ahead = max(1, self._held - self._running + 1)
        return max(1, min(120, math.ceil(ahead * self._seconds / self._running)))

    @contextmanager
    def admitted(self) -> Iterator[None]:
        """Holds a slot for the body; ``LocalModelBusy`` when the queue is full."""
        with self._lock:
            if self._held >= self.capacity:
                raise LocalModelBusy(
                    f"the local model is busy: {self._held} requests run or wait",
                    headers={"Retry-After": str(self.retry_after_s())},
                )
            self._held += 1
        try:
            with self._slots:
                started = time.monotonic()
                yield
                self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - started)
        finally:
            with self._lock:
                self._held -= 1


def _server_params(file: Path, options: LocalOptions) -> Any:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # idle threads sleep, not spin
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(file)
    params.n_ctx = options.context * options.parallel  # llama.cpp splits it between slots
    params.n_parallel = options.parallel
    params.cpuparams.n_threads = options.threads
    params.cpuparams_batch.n_threads = options.threads
    params.use_jinja = True  # the file's own chat template, tool calls included
    params.warmup = False
    params.verbosity = -1
    # xllamacpp always opens an HTTP port on loopback: a key nobody knows keeps it closed.
    params.api_keys = [secrets.token_urlsafe(32)]
    params.n_threads_http = 1
    return params


def _error_text(answer: dict[str, Any]) -> str:
    error = answer.get("error")
    if isinstance(error, dict):
        return str(error.get("message") or error)
    return str(answer.get("message") or error or answer)


class LocalBackend:
    """A loaded GGUF file; ``post`` and ``stream_lines`` answer chat-completion bodies."""

    def __init__(self, file: Path, options: LocalOptions) -> None:
        import xllamacpp

        self.file = file
        self.options = options
        try:
            self.server = xllamacpp.Server(_server_params(file, options))
        except (RuntimeError, ValueError) as error:
            raise UpstreamError(
                f"llama.cpp could not load {file.name}: {error}", code="local_model_unloadable"
            ) from error
        self.queue = RequestQueue(options.parallel, options.queue)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """One whole chat completion."""
        with self.queue.admitted():
            try:
                answer: dict[str, Any] = self.server.handle_chat_completions(body)
            except (RuntimeError, ValueError) as error:
                raise UpstreamError(f"the local model refused the request: {error}") from error
        if "choices" not in answer:
            raise UpstreamError(f"the local model failed: {_error_text(answer)}")
        return answer

    def stream_lines(self, path: str, body: dict[str, Any]) -> Iterator[str]:
        """The completion's chunks as SSE ``data:`` lines, as llama.cpp produces them; closing
        the iterator stops the generation at the next token."""
        with self.queue.admitted():
            yield from self._generated(body)

    def _generated(self, body: dict[str, Any]) -> Iterator[str]:
        chunks: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()

        def receive(chunk: dict[str, Any]) -> bool:
            chunks.put(chunk)
            return stop.is_set()  # True: llama.cpp stops generating

        def generate() -> None:
            try:
                self.server.handle_chat_completions(body, receive)
            except Exception as error:  # handed to the reader, raised there
                chunks.put(error)
            finally:
                chunks.put(_DONE)

        worker = threading.Thread(target=generate, name="vigia-local-model", daemon=True)
        worker.start()
        try:
            while (chunk := chunks.get()) is not _DONE:
                if isinstance(chunk, Exception):
                    raise UpstreamError(f"the local model refused the request: {chunk}")
                if "choices" not in chunk and "usage" not in chunk:
                    raise UpstreamError(f"the local model failed: {_error_text(chunk)}")
                yield "data: " + json.dumps(chunk, ensure_ascii=False)
        finally:
            stop.set()
            worker.join()  # the slot frees when llama.cpp has stopped
