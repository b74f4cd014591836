"""The LRU utility and the text-vector cache built on it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.decide.helpers import HashEmbedder
from vigia.embeddings import VectorCache
from vigia.kit.cache import LRUCache


def test_lru_forgets_the_least_recently_used_entry() -> None:
    cache: LRUCache[str, int] = LRUCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the oldest
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    assert len(cache) == 2


def test_lru_weighs_entries_and_keeps_the_newest_even_when_too_heavy() -> None:
    cache: LRUCache[str, str] = LRUCache(10, weigh=len)
    cache.put("a", "x" * 6)
    cache.put("b", "x" * 4)
    cache.put("c", "x" * 3)  # 13 > 10: "a" goes
    assert cache.get("a") is None and cache.get("b") and cache.get("c")
    cache.put("d", "x" * 50)
    assert len(cache) == 1 and cache.get("d") == "x" * 50


def test_lru_entries_expire_after_their_ttl(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr("vigia.kit.cache.time.monotonic", lambda: now[0])
    cache: LRUCache[str, int] = LRUCache(5, ttl_s=2.0)
    cache.put("k", 1)
    now[0] = 101.9
    assert cache.get("k") == 1
    now[0] = 102.1
    assert cache.get("k") is None and len(cache) == 0


def test_lru_get_or_put_makes_a_value_once() -> None:
    cache: LRUCache[str, int] = LRUCache(5)
    made: list[int] = []

    def make(value: int) -> int:
        made.append(value)
        return value

    assert cache.get_or_put("a", lambda: make(1)) == 1
    assert cache.get_or_put("a", lambda: make(2)) == 1
    cache.put("b", 2)
    assert made == [1] and cache.get("a") == 1 and cache.get("b") == 2


class CountingEmbedder(HashEmbedder):
    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def queries(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return super().queries(texts)


def test_vector_cache_embeds_only_unseen_texts_in_one_batch() -> None:
    embedder, cache = CountingEmbedder(), VectorCache(100)
    first = cache.queries(embedder, ["uno", "dos"])
    again = cache.queries(embedder, ["dos", "tres", "uno", "tres"])
    assert embedder.calls == [["uno", "dos"], ["tres"]]
    assert np.array_equal(again[0], first[1]) and np.array_equal(again[2], first[0])
    assert again.shape == (4, embedder.dim) and len(cache) == 3


def test_vector_cache_one_by_one_embeds_each_text_alone_and_apart() -> None:
    embedder, cache = CountingEmbedder(), VectorCache(100)
    cache.queries(embedder, ["uno", "dos"])
    cache.queries(embedder, ["uno", "dos"], one_by_one=True)
    assert embedder.calls == [["uno", "dos"], ["uno"], ["dos"]]
    assert cache.queries(embedder, []).shape == (0, embedder.dim)
