"""Write admission: at most ``write_concurrency`` write requests run at once, the rest wait
in a bounded queue; a full queue, or a wait past ``write_wait_s``, answers 503 with
Retry-After (``Overloaded``, rendered in each surface's error shape).

Slots are shared fairly between tenants: a request counts for its credential and, once
its key is known, for its workspace too (``vigia.http.write_tenant``); each of those runs at most
``slots - 1`` writes at once, so the last slot is always there for the others, and a freed
slot goes to the tenants' queues in turn (round-robin; first come, first served within a
tenant).

Waiting happens on the event loop, so a queued request holds no worker thread and no
database connection: reads (``GET /v1/models``, lists) keep their threads and connections
however many writes are queued. FastAPI's ``Depends(max_concurrency=…)`` queues without a
bound, hence this gate. It is thread-safe and loop-agnostic (each waiter's future is woken
on its own loop), so one gate serves every request of an app: ``create_app`` builds it
(``write_gate_for``) and keeps it in ``app.state.write_gate``.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Request

from vigia.config import Settings
from vigia.errors import Overloaded
from vigia.http.write_tenant import tenant_of
from vigia.kit.model_work import ModelWorkers
from vigia.observability.metrics import BUSY_REFUSALS

MAX_RETRY_AFTER_S = 60
Tenant = tuple[str, ...]
"""Whom a request counts for: its labels (a credential, a workspace), each under its share."""


def _labels(tenant: str | Tenant) -> Tenant:
    return (tenant,) if isinstance(tenant, str) else tenant


def tenant_share(slots: int) -> int:
    """The most slots one tenant may hold: all but one (the only one of a one-slot gate)."""
    return max(1, slots - 1)


class WriteGate:
    """A semaphore with a bounded, time-limited queue per tenant, served in turn."""

    def __init__(self, slots: int, queue: int, wait_s: float) -> None:
        self.slots = slots
        self.queue = queue
        self.wait_s = wait_s
        self.share = tenant_share(slots)
        self.running = 0
        self.held: dict[str, int] = {}
        self._queues: OrderedDict[Tenant, deque[asyncio.Future[None]]] = OrderedDict()
        self._waiting = 0
        self._lock = threading.Lock()
        self._hold_s = 0.5  # moving average of how long a slot is held, for Retry-After

    @property
    def waiting(self) -> int:
        return self._waiting

    def retry_after(self) -> str:
        """Seconds until the back of the queue would likely be served, 1 to 60."""
        estimate = (self._waiting + 1) * self._hold_s / self.slots
        return str(min(MAX_RETRY_AFTER_S, max(1, math.ceil(estimate))))

    def _refuse(self, why: str) -> Overloaded:
        BUSY_REFUSALS.labels(why).inc()
        return Overloaded(
            f"too many writes in flight ({why}); retry later",
            headers={"Retry-After": self.retry_after()},
        )

    def _take(self, tenant: Tenant) -> None:
        self.running += 1
        for label in tenant:
            self.held[label] = self.held.get(label, 0) + 1

    def _under_share(self, tenant: Tenant) -> bool:
        return all(self.held.get(label, 0) < self.share for label in tenant)

    async def acquire(self, tenant: str | Tenant = "") -> None:
        """Takes a slot for ``tenant``, waiting up to ``wait_s``; ``Overloaded`` when the
        queue is full or the wait timed out."""
        tenant = _labels(tenant)
        with self._lock:
            free = self.running < self.slots and self._under_share(tenant)
            if free and tenant not in self._queues:
                self._take(tenant)
                return
            if self._waiting >= self.queue:
                raise self._refuse("queue full")
            waiter = asyncio.get_running_loop().create_future()
            self._queues.setdefault(tenant, deque()).append(waiter)
            self._waiting += 1
        try:
            async with asyncio.timeout(self.wait_s):
                await waiter
        except BaseException as error:
            with self._lock:
                queued = self._forget(tenant, waiter)
            if not queued:  # the slot was handed over as we gave up: pass it on
                self.release(tenant=tenant)
            if isinstance(error, TimeoutError):
                raise self._refuse("waited too long") from None
            raise

    def _forget(self, tenant: Tenant, waiter: asyncio.Future[None]) -> bool:
        """Takes ``waiter`` out of its queue; False when it was already served."""
        waiters = self._queues.get(tenant)
        if waiters is None or waiter not in waiters:
            return False
        waiters.remove(waiter)
        self._waiting -= 1
        if not waiters:
            del self._queues[tenant]
        return True

    def _next_waiter(self) -> asyncio.Future[None] | None:
        """The first waiter of the first tenant in turn that is under its share."""
        for tenant, waiters in self._queues.items():
            if not self._under_share(tenant):
                continue
            waiter = waiters.popleft()
            self._waiting -= 1
            del self._queues[tenant]
            if waiters:  # back of the turn
                self._queues[tenant] = waiters
            self._take(tenant)
            return waiter
        return None

    def release(self, held_s: float | None = None, tenant: str | Tenant = "") -> None:
        """Frees ``tenant``'s slot and hands free slots to the waiters whose turn it is."""
        woken: list[asyncio.Future[None]] = []
        with self._lock:
            if held_s is not None:
                self._hold_s = 0.8 * self._hold_s + 0.2 * held_s
            self.running -= 1
            for label in _labels(tenant):
                left = self.held.get(label, 0) - 1
                if left > 0:
                    self.held[label] = left
                else:
                    self.held.pop(label, None)
            while self.running < self.slots and (waiter := self._next_waiter()) is not None:
                woken.append(waiter)
        for waiter in woken:
            waiter.get_loop().call_soon_threadsafe(_wake, waiter)


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def model_workers_for(settings: Settings) -> ModelWorkers:
    """The app's model workers (``vigia.kit.model_work``): at most as many calls waiting as
    there are write slots, each write waiting for one model call at a time."""
    return ModelWorkers(
        settings.model_workers, settings.write_concurrency, settings.model_workers_nice
    )


def write_gate_for(settings: Settings) -> WriteGate:
    """An app's gate, sized by ``settings``."""
    return WriteGate(settings.write_concurrency, settings.write_queue, settings.write_wait_s)


@asynccontextmanager
async def holding_slot(request: Request) -> AsyncIterator[None]:
    """Holds a write slot of the request's tenant for the block; ``Overloaded`` when none
    comes free. The block's model work runs on the app's ``ModelWorkers``."""
    gate: WriteGate = request.app.state.write_gate
    tenant = tenant_of(request)
    await gate.acquire(tenant)
    workers: ModelWorkers = request.app.state.model_workers
    workers.serve_here()  # the route's model work runs on the app's model workers
    started = time.monotonic()
    try:
        yield
    finally:
        gate.release(time.monotonic() - started, tenant)


async def write_slot(request: Request) -> AsyncIterator[None]:
    """FastAPI dependency of the write routes: holds a slot of the request's tenant until
    the response is sent (streams included). Declare it first, so that everything the route
    does (authentication lookups included) runs inside the slot and a queued request holds
    nothing."""
    async with holding_slot(request):
        yield
