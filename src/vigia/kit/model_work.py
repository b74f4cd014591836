"""Model work on a bounded pool of low-priority threads, apart from the event loop and the
request threads.

Embedding, the injection detector, the answerer's sentence scoring and decisions hold a core
for milliseconds to seconds. Run on the request's own thread, a burst of writes keeps as many
threads busy as there are write slots, all at the priority of the event loop, so reads
(``/v1/models``, health, metrics, console pages) wait for the CPU behind them. ``run``
hands the work to the app's ``ModelWorkers`` instead: ``workers`` threads (one per core by
default), each lowered by ``nice`` on Linux, so the operating system gives the loop and the
request threads the CPU first and the model work queues behind at most ``workers`` runs.
The queue is bounded: at most ``queue`` calls wait, further callers block until one is
taken (the write admission gate, ``vigia.http.admission``, answers 503 before that in
practice: it admits at most ``write_concurrency`` writes at once).

The app builds one pool (``app.state.model_workers``) and a write route's admission
(``vigia.http.admission.write_slot``) makes it the current one for that request (a
context variable, seen by the threads the request hands work to). Without a current
pool (the CLI, tests that call services directly) and on a worker itself (nested calls),
``run`` runs the work inline.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

_CURRENT: contextvars.ContextVar[ModelWorkers | None] = contextvars.ContextVar(
    "model_workers", default=None
)
_ON_WORKER = threading.local()


class ModelWorkers:
    """``workers`` low-priority threads that run model work, at most ``queue`` calls waiting."""

    def __init__(self, workers: int, queue: int, nice: int = 10) -> None:
        self.workers = workers
        self.nice = nice
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._pool = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="vigia-model", initializer=self._started
        )

    def _started(self) -> None:
        _ON_WORKER.active = True
        if self.nice and hasattr(os, "setpriority"):
            with contextlib.suppress(OSError):  # Linux: a thread's own nice, by its native id
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)

    def run(self, work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """``work(*args, **kwargs)`` on a worker (in the caller's context); its result or its
        exception."""
        with self._slots:
            context = contextvars.copy_context()
            return self._pool.submit(lambda: context.run(work, *args, **kwargs)).result()

    def serve_here(self) -> None:
        """Makes this pool the one ``run`` uses for the rest of the current context: a
        request's task and the threads it hands work to (they copy its context)."""
        _CURRENT.set(self)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def run(work: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``work(*args, **kwargs)`` on the current app's model workers; inline without one or
    when already on a worker."""
    workers = _CURRENT.get()
    if workers is None or getattr(_ON_WORKER, "active", False):
        return work(*args, **kwargs)
    return workers.run(work, *args, **kwargs)
