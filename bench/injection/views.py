"""Extra views of a message for the injection head: e5 vectors and hashed n-grams.

Each view gives one row per text the detector reads of a message (its clipped whole, then its
segments: ``vigia.guardrails.injection.embedding_texts``), aligned with the USE rows, as the
product's second stage computes the e5 rows (``vigia.guardrails.injection_cascade``; the
hashed views are for cross-validation only, the product does not compute them):

- ``e5``: multilingual-e5-small ("query: " side) of ``e5_texts`` (a shorter clipped whole,
  the same segments), 384 columns;
- ``words``: word unigrams and bigrams, hashed into 1,024 binary buckets, L2-normalised;
- ``chars``: character 3- and 4-grams of the words, hashed the same way.

Column layout of a full row: USE 512 | patterns 12 | e5 384 | words 1,024 | chars 1,024.
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Callable
from functools import lru_cache

import numpy as np
from bench.injection.data import StoredVectors
from numpy.typing import NDArray

from vigia.guardrails.injection import embedding_texts
from vigia.guardrails.injection_cascade import E5_DIM, VIEWS, e5_texts

BUCKETS = 1024
_WORD = re.compile(r"[^\W_]+")
OFFSETS: dict[str, tuple[int, int]] = {}
_start = 0
for _name, _width in (*VIEWS.items(), ("words", BUCKETS), ("chars", BUCKETS)):
    OFFSETS[_name] = (_start, _start + _width)
    _start += _width
FULL_WIDTH = _start


def _bucketed(grams: list[str]) -> NDArray[np.float32]:
    row = np.zeros(BUCKETS, dtype=np.float32)
    for gram in grams:
        row[zlib.crc32(gram.encode("utf-8")) % BUCKETS] = 1.0
    norm = float(np.linalg.norm(row))
    return row / norm if norm else row


@lru_cache(maxsize=100_000)
def hashed_words(text: str) -> NDArray[np.float32]:
    """Word unigrams and bigrams of ``text`` (lower-cased) in 1,024 binary buckets,
    L2-normalised."""
    words = _WORD.findall(text.lower())
    return _bucketed(words + [f"{a} {b}" for a, b in itertools.pairwise(words)])


@lru_cache(maxsize=100_000)
def hashed_chars(text: str) -> NDArray[np.float32]:
    """Character 3- and 4-grams of ``text``'s words (lower-cased, a space each side) in
    1,024 binary buckets, L2-normalised: stems and affixes cross languages, words do not."""
    grams = []
    for word in _WORD.findall(text.lower()):
        padded = f" {word} "
        grams += [padded[i : i + n] for n in (3, 4) for i in range(len(padded) - n + 1)]
    return _bucketed(grams)


def _no_vectors(texts: list[str]) -> NDArray[np.float32]:
    return np.zeros((len(texts), E5_DIM), dtype=np.float32)


def _hashed(texts: list[str]) -> NDArray[np.float32]:
    return np.stack([np.hstack([hashed_words(t), hashed_chars(t)]) for t in texts])


class Views:
    """The extra columns (e5 | words | chars) of a message's rows, or of one short text
    (``e5=False``: zeros in place of e5, for recipes that do not read it)."""

    def __init__(self, e5: bool = True) -> None:
        self.e5: Callable[[list[str]], NDArray[np.float32]] = (
            StoredVectors(encoder="e5") if e5 else _no_vectors
        )

    def columns(self, text: str) -> NDArray[np.float32]:
        """One row per text of ``embedding_texts(text)``."""
        vectors = self.e5(e5_texts(text))
        return np.hstack([vectors, _hashed(embedding_texts(text))]).astype(np.float32)

    def single(self, texts: list[str]) -> NDArray[np.float32]:
        """One row per short text, read whole (the benign fragments)."""
        return np.hstack([self.e5(texts), _hashed(texts)]).astype(np.float32)
