"""Write admission: at most ``write_concurrency`` write requests run at once, the rest wait
in a bounded queue; a full queue, or a wait past ``write_wait_s``, answers 503 with
Retry-After (``Overloaded``, rendered in each surface's error shape).

Waiting happens on the event loop, so a queued request holds no worker thread and no
database connection: reads (``GET /v1/models``, lists) keep their threads and connections
however many writes are queued. FastAPI's ``Depends(max_concurrency=…)`` queues without a
bound, hence this gate. It is thread-safe and loop-agnostic (each waiter's future is woken
on its own loop), so one gate serves the process.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import deque
from collections.abc import AsyncIterator
from functools import lru_cache

from vigia.config import get_settings
from vigia.errors import Overloaded
from vigia.observability.metrics import BUSY_REFUSALS

MAX_RETRY_AFTER_S = 60


class WriteGate:
    """A semaphore with a bounded, time-limited FIFO queue."""

    def __init__(self, slots: int, queue: int, wait_s: float) -> None:
        self.slots = slots
        self.queue = queue
        self.wait_s = wait_s
        self.running = 0
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._lock = threading.Lock()
        self._hold_s = 0.5  # moving average of how long a slot is held, for Retry-After

    @property
    def waiting(self) -> int:
        return len(self._waiters)

    def retry_after(self) -> str:
        """Seconds until the back of the queue would likely be served, 1 to 60."""
        estimate = (len(self._waiters) + 1) * self._hold_s / self.slots
        return str(min(MAX_RETRY_AFTER_S, max(1, math.ceil(estimate))))

    def _refuse(self, why: str) -> Overloaded:
        BUSY_REFUSALS.labels(why).inc()
        return Overloaded(
            f"too many writes in flight ({why}); retry later",
            headers={"Retry-After": self.retry_after()},
        )

    async def acquire(self) -> None:
        """Takes a slot, waiting up to ``wait_s``; ``Overloaded`` when full or timed out."""
        with self._lock:
            if self.running < self.slots and not self._waiters:
                self.running += 1
                return
            if len(self._waiters) >= self.queue:
                raise self._refuse("queue full")
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
        try:
            async with asyncio.timeout(self.wait_s):
                await waiter
        except BaseException as error:
            with self._lock:
                queued = waiter in self._waiters
                if queued:
                    self._waiters.remove(waiter)
            if not queued:  # the slot was handed over as we gave up: pass it on
                self.release()
            if isinstance(error, TimeoutError):
                raise self._refuse("waited too long") from None
            raise

    def release(self, held_s: float | None = None) -> None:
        """Frees a slot, handing it straight to the longest waiter if there is one."""
        with self._lock:
            if held_s is not None:
                self._hold_s = 0.8 * self._hold_s + 0.2 * held_s
            if not self._waiters:
                self.running -= 1
                return
            waiter = self._waiters.popleft()
        waiter.get_loop().call_soon_threadsafe(_wake, waiter)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


@lru_cache(maxsize=1)
def get_write_gate() -> WriteGate:
    """The process-wide gate, sized by the settings."""
    settings = get_settings()
    return WriteGate(settings.write_concurrency, settings.write_queue, settings.write_wait_s)


async def write_slot() -> AsyncIterator[None]:
    """FastAPI dependency of the write routes: holds a slot until the response is sent
    (streams included). Declare it first, so that everything the route does (authentication
    lookups included) runs inside the slot and a queued request holds nothing."""
    gate = get_write_gate()
    await gate.acquire()
    started = time.monotonic()
    try:
        yield
    finally:
        gate.release(time.monotonic() - started)
