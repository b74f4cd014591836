"""A small bounded cache, safe across threads: least recently used entries leave first.

The package's process-wide caches (fitted classifiers, agent versions, authenticated keys,
vector matrices, text vectors) are all instances of ``LRUCache``. A ``functools.lru_cache``
serves instead where the cached call takes only hashable arguments.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LRUCache(Generic[K, V]):
    """A map bounded by ``capacity`` that forgets the least recently used entries first.

    ``weigh`` gives an entry's share of the capacity (1 each by default; bytes for large
    matrices); the newest entry always stays, even alone over the bound. With ``ttl_s``, an
    entry is forgotten that many seconds after it was put.
    """

    def __init__(
        self,
        capacity: int,
        weigh: Callable[[V], int] | None = None,
        ttl_s: float | None = None,
    ) -> None:
        self.capacity = capacity
        self.ttl_s = ttl_s
        self._weigh = weigh
        self._items: OrderedDict[K, tuple[float, int, V]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value of ``key`` (now the most recently used), or None."""
        with self._lock:
            entry = self._items.get(key)
            if entry is None:
                return None
            if self.ttl_s is not None and entry[0] < time.monotonic():
                self._remove(key)
                return None
            self._items.move_to_end(key)
            return entry[2]

    def put(self, key: K, value: V) -> None:
        """Stores ``value`` under ``key``, then forgets the oldest entries over the bound."""
        expires = time.monotonic() + self.ttl_s if self.ttl_s is not None else 0.0
        weight = self._weigh(value) if self._weigh is not None else 1
        with self._lock:
            if key in self._items:
                self._remove(key)
            self._items[key] = (expires, weight, value)
            self._weight += weight
            while self._weight > self.capacity and len(self._items) > 1:
                self._remove(next(iter(self._items)))

    def get_or_put(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``, made and stored when missing (``make`` runs unlocked)."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._weight = 0

    def __len__(self) -> int:
        return len(self._items)

    def _remove(self, key: K) -> None:
        self._weight -= self._items.pop(key)[1]
