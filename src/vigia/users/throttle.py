"""Login throttling: only failures count, per user name at one address and per address, with a
capped exponential backoff.

- A user name at one client address gets ``FREE_PER_NAME`` failures, then each further one
  locks that pair for 1 s, 2 s, 4 s… up to ``MAX_LOCK_S``. A success there resets it.
- An address gets ``FREE_PER_ADDRESS`` failures over any user names (password spraying), then
  the same backoff for everything it tries. A success does not reset it (an attacker could
  otherwise log in to their own account between guesses).
- While locked, an attempt is refused with 429 before the password is checked and is not
  counted. Counts are forgotten ``FORGET_AFTER_S`` after the last failure.

A stranger failing with a user's name locks only their own address: the user still logs in
from theirs. Counts live in Redis when ``VIGIA_REDIS_URL`` is set (shared by replicas).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from vigia.config import get_settings
from vigia.errors import RateLimited
from vigia.workspaces.ratelimit import redis_client, retry_after_header

FREE_PER_NAME = 5
FREE_PER_ADDRESS = 20
FIRST_LOCK_S = 1.0
MAX_LOCK_S = 900.0
FORGET_AFTER_S = 3600.0


def lock_seconds(failures: int, free: int) -> float:
    """How long the ``failures``-th failure locks its subject (0 within the free ones)."""
    if failures <= free:
        return 0.0
    return min(MAX_LOCK_S, FIRST_LOCK_S * 2.0 ** min(failures - free - 1, 30))


class FailureStore(Protocol):
    def locked_for(self, subjects: list[str]) -> float:
        """Seconds until every subject is unlocked (0 when none is locked)."""
        ...

    def record_failure(self, subject: str, free: int) -> None:
        """Counts a failure and locks the subject when past its free failures."""
        ...

    def forget(self, subject: str) -> None: ...


@dataclass
class _Count:
    failures: int = 0
    locked_until: float = 0.0
    last_failure: float = 0.0


class MemoryFailureStore:
    """Failure counts of one process."""

    def __init__(self) -> None:
        self._counts: dict[str, _Count] = {}
        self._lock = threading.Lock()

    def locked_for(self, subjects: list[str]) -> float:
        now = time.monotonic()
        with self._lock:
            ends = [self._counts[s].locked_until for s in subjects if s in self._counts]
        return max([end - now for end in ends if end > now], default=0.0)

    def record_failure(self, subject: str, free: int) -> None:
        now = time.monotonic()
        with self._lock:
            count = self._counts.get(subject)
            if count is None or now - count.last_failure > FORGET_AFTER_S:
                count = self._counts[subject] = _Count()
            count.failures += 1
            count.last_failure = now
            count.locked_until = now + lock_seconds(count.failures, free)

    def forget(self, subject: str) -> None:
        with self._lock:
            self._counts.pop(subject, None)


_RECORD = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local free = tonumber(ARGV[1])
local lock = 0
if failures > free then
  lock = math.min(tonumber(ARGV[3]), tonumber(ARGV[2]) * 2 ^ math.min(failures - free - 1, 30))
end
redis.call('HSET', KEYS[1], 'until', tostring(now + lock))
redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[4]) * 1000))
return failures
"""

_LOCKED_FOR = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local wait = 0
for _, key in ipairs(KEYS) do
  local ends = tonumber(redis.call('HGET', key, 'until') or '0')
  if ends - now > wait then wait = ends - now end
end
return tostring(wait)
"""


class RedisFailureStore:
    """Failure counts shared by replicas: one hash per subject, changed by atomic scripts."""

    def __init__(self, url: str) -> None:
        client = redis_client(url)
        self._client = client
        self._record = client.register_script(_RECORD)
        self._locked_for = client.register_script(_LOCKED_FOR)

    @staticmethod
    def _key(subject: str) -> str:
        return f"vigia:login:{subject}"

    def locked_for(self, subjects: list[str]) -> float:
        return float(self._locked_for(keys=[self._key(s) for s in subjects]))

    def record_failure(self, subject: str, free: int) -> None:
        self._record(
            keys=[self._key(subject)], args=[free, FIRST_LOCK_S, MAX_LOCK_S, FORGET_AFTER_S]
        )

    def forget(self, subject: str) -> None:
        self._client.delete(self._key(subject))


@lru_cache(maxsize=1)
def get_failure_store() -> FailureStore:
    """Redis when ``VIGIA_REDIS_URL`` is set, otherwise the process's own counts."""
    url = get_settings().redis_url
    return RedisFailureStore(url) if url else MemoryFailureStore()


def _subjects(name: str, address: str) -> tuple[str, str]:
    return f"name:{name.casefold()}@{address}", f"address:{address}"


def check(name: str, address: str) -> None:
    """429 with ``Retry-After`` while the user name at this address, or the address, is locked."""
    wait = get_failure_store().locked_for(list(_subjects(name, address)))
    if wait > 0:
        raise RateLimited(
            "too many failed login attempts; try again later",
            headers={"Retry-After": retry_after_header(wait)},
        )


def failed(name: str, address: str) -> None:
    pair, by_address = _subjects(name, address)
    store = get_failure_store()
    store.record_failure(pair, FREE_PER_NAME)
    store.record_failure(by_address, FREE_PER_ADDRESS)


def succeeded(name: str, address: str) -> None:
    get_failure_store().forget(_subjects(name, address)[0])
