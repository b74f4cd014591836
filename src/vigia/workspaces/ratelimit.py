"""Sliding-window rate limits per key: in memory for one process, Redis across replicas."""

from __future__ import annotations

import math
import threading
import time
import uuid
from collections import deque
from functools import lru_cache
from typing import Any, Protocol

from vigia.config import Settings

WINDOW_S = 60.0


class RateLimiter(Protocol):
    def acquire(self, bucket: str, limit: int) -> float | None:
        """Takes one slot; None if allowed, else the seconds until a slot frees."""
        ...


class MemoryRateLimiter:
    """Exact for one process: a deque of admission times per bucket, behind a lock.

    Buckets idle for a whole window are dropped every ``SWEEP_EVERY`` admissions, so keys
    that stop calling (revoked, rotated) do not keep memory for the life of the process.
    """

    SWEEP_EVERY = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hits: dict[str, deque[float]] = {}
        self._calls = 0

    def __len__(self) -> int:
        """Buckets held now."""
        return len(self._hits)

    def acquire(self, bucket: str, limit: int) -> float | None:
        now = time.monotonic()
        with self._lock:
            self._calls += 1
            if self._calls % self.SWEEP_EVERY == 0:
                self._sweep(now)
            hits = self._hits.setdefault(bucket, deque())
            while hits and hits[0] <= now - WINDOW_S:
                hits.popleft()
            if len(hits) >= limit:
                return hits[0] + WINDOW_S - now
            hits.append(now)
            return None

    def _sweep(self, now: float) -> None:
        idle = [name for name, hits in self._hits.items() if not hits or hits[-1] <= now - WINDOW_S]
        for name in idle:
            del self._hits[name]


_LUA = """
local key = KEYS[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return tostring(tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', key, now, ARGV[3])
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return false
"""


@lru_cache(maxsize=4)
def redis_client(url: str) -> Any:
    """The process's Redis client for ``url`` (thread-safe, pooled), shared by every user."""
    try:
        import redis
    except ImportError as error:  # pragma: no cover - depends on the install
        raise ImportError('Redis support needs: pip install "vigia[redis]"') from error
    return redis.Redis.from_url(url)


class RedisRateLimiter:
    """Exact across replicas: one atomic Lua script over a sorted set per bucket, on Redis's
    clock (one round trip per request)."""

    def __init__(self, url: str) -> None:
        self._client = redis_client(url)
        self._script = self._client.register_script(_LUA)

    def acquire(self, bucket: str, limit: int) -> float | None:
        result = self._script(keys=[f"vigia:rl:{bucket}"], args=[WINDOW_S, limit, uuid.uuid4().hex])
        return None if result is None else float(result)


def rate_limiter_for(settings: Settings) -> RateLimiter:
    """An app's limiter (``create_app`` keeps it in ``app.state.rate_limiter``): Redis when
    ``VIGIA_REDIS_URL`` is set (shared by every replica), otherwise in-process."""
    url = settings.redis_url
    return RedisRateLimiter(url) if url else MemoryRateLimiter()


def retry_after_header(wait_s: float) -> str:
    return str(max(1, math.ceil(wait_s)))
