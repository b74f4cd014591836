"""The ingest worker: one low-priority thread per app that indexes queued uploads one at a
time, apart from the event loop and the request threads.

At most ``limit`` uploads are queued or being indexed: past it an upload is refused with
503 and Retry-After (``Overloaded``) before anything is stored. Queued uploads live in the
database (``knowledge_uploads``) until indexed, so a restarted server takes them up again:
``resume`` (called at the app's startup) queues every upload no live worker holds, and,
while uploads held by another run remain, the thread looks again every ``stale_s`` (a
claim not refreshed for that long belongs to a run that stopped). The thread starts with
the first upload and ends with the app.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections import deque
from collections.abc import Iterator

from sqlalchemy.exc import SQLAlchemyError

from vigia.config import Settings
from vigia.db.base import new_id
from vigia.db.session import session_scope
from vigia.errors import Overloaded
from vigia.knowledge import ingest

log = logging.getLogger(__name__)
RETRY_AFTER_S = "30"


class _Stopped(Exception):
    """The app shut its worker down."""


class IngestWorker:
    """Indexes queued knowledge uploads on one thread, at most ``limit`` at a time in it."""

    def __init__(self, limit: int, stale_s: float, nice: int = 10) -> None:
        self.limit = limit
        self.stale_s = stale_s
        self.nice = nice
        self._lock = threading.Condition()
        self._queue: deque[str] = deque()
        self._running: str | None = None
        self._reserved = 0
        self._watch = False  # uploads held by another run wait: look again later
        self._stopped = False
        self._thread: threading.Thread | None = None

    def _held(self) -> int:
        return len(self._queue) + self._reserved + (self._running is not None)

    @contextlib.contextmanager
    def reservation(self) -> Iterator[None]:
        """A place in the queue for one upload while the caller stores it (then
        ``submit``); 503 with Retry-After when the queue is full."""
        with self._lock:
            if self._held() >= self.limit:
                raise Overloaded(
                    f"{self.limit} knowledge uploads are already being indexed; retry later",
                    headers={"Retry-After": RETRY_AFTER_S},
                )
            self._reserved += 1
        try:
            yield
        finally:
            with self._lock:
                self._reserved -= 1

    def submit(self, upload_id: str) -> None:
        """Queues a stored upload (its transaction committed)."""
        with self._lock:
            self._queue.append(upload_id)
            self._start()
            self._lock.notify()

    def resume(self) -> int:
        """Queues the stored uploads no live run holds; how many. Called at startup."""
        try:
            with session_scope() as session:
                ids, anything = ingest.waiting(session, ingest.stale_before(self.stale_s))
        except SQLAlchemyError:
            log.warning("could not look for knowledge uploads to resume", exc_info=True)
            return 0
        with self._lock:
            known = {*self._queue, self._running}
            fresh = [i for i in ids if i not in known]
            self._queue.extend(fresh)
            self._watch = anything
            if anything:
                self._start()
            self._lock.notify()
        return len(fresh)

    def busy(self) -> bool:
        """Whether an upload is queued or being indexed here."""
        with self._lock:
            return bool(self._queue) or self._running is not None

    def shutdown(self) -> None:
        """Ends the thread once its current upload is done (the rest stays stored)."""
        with self._lock:
            self._stopped = True
            self._lock.notify_all()

    def _start(self) -> None:
        if self._thread is None and not self._stopped:
            self._thread = threading.Thread(
                target=self._serve, name="vigia-knowledge-ingest", daemon=True
            )
            self._thread.start()

    def _next(self) -> str | None:
        """The next upload to index; None to look for stale ones; ``_Stopped`` at shutdown."""
        with self._lock:
            while not self._queue and not self._stopped:
                if not self._lock.wait(timeout=self.stale_s if self._watch else None):
                    return None
            if self._stopped:
                raise _Stopped
            self._running = self._queue.popleft()
            return self._running

    def _serve(self) -> None:
        if self.nice and hasattr(os, "setpriority"):
            with contextlib.suppress(OSError):  # Linux: this thread's own nice
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        with contextlib.suppress(_Stopped):
            while True:
                upload_id = self._next()
                if upload_id is None:
                    self.resume()
                    continue
                try:
                    token = new_id()
                    if ingest.claim(upload_id, token, ingest.stale_before(self.stale_s)):
                        ingest.index_upload(upload_id, token, self.stale_s / 4)
                except Exception:
                    log.exception("knowledge upload %s: the ingest worker failed", upload_id)
                finally:
                    with self._lock:
                        self._running = None


def ingest_worker_for(settings: Settings) -> IngestWorker:
    """The app's ingest worker, sized by the settings (``VIGIA_KNOWLEDGE_INGEST_*``)."""
    return IngestWorker(
        settings.knowledge_ingest_queue,
        settings.knowledge_ingest_stale_s,
        settings.model_workers_nice,
    )
