"""Prompt-injection and jailbreak detection: a frozen multilingual embedding and a fitted head.

No packaged injection model with weights is usable offline (docs/guardrails.md), so the detector
is a small logistic head on top of the multilingual sentence encoder that ships with the
package (USE v3, ``vigia.embeddings``), with the hand-written attack patterns
(``patterns.py``) as extra features only. The head's weights, its thresholds and the figures
they were chosen on live in ``data/injection_head.json``, written by
``bench/fit_injection.py`` from public labelled prompts (docs/guardrails.md); nothing is
fitted at run time.

A message is scored as a whole and, when it is longer than a paragraph, segment by segment
(``injection_text.py``); its score is the highest. Since 1.2.0 the head has two stages: the
USE head above decides most messages; one whose score falls in an uncertain band is scored
again by a second head that also reads multilingual-e5-small (``injection_cascade.py``).
Scores are cached by a hash of the message, so a conversation history that the client
resends costs one lookup per message.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vigia.embeddings import TEXT_VECTORS, Vectors, get_embedder
from vigia.guardrails.config import Sensitivity
from vigia.guardrails.injection_cascade import SecondStage, e5_texts, view_rows
from vigia.guardrails.injection_text import (
    PATTERN_NAMES,
    SEGMENT_CHARS,
    clipped,
    pattern_features,
    segments,
    squeezed,
)
from vigia.guardrails.patterns import families
from vigia.kit.cache import LRUCache

HEAD_FILE = Path(__file__).parent / "data" / "injection_head.json"
CACHE_MESSAGES = 20_000


def embedding_texts(text: str, size: int = SEGMENT_CHARS) -> list[str]:
    """What is embedded for ``text``: the clipped whole, then its segments when several."""
    parts = segments(text, size)
    return [clipped(text), *(parts if len(parts) > 1 else [])]


def feature_rows(text: str, vectors: Vectors, size: int = SEGMENT_CHARS) -> NDArray[np.float32]:
    """One row per embedded text of ``text``: its vector, then its pattern indicators.

    ``vectors`` are the embeddings of ``embedding_texts(text)``, in that order; the first
    row's patterns are those of the whole message.
    """
    texts = embedding_texts(text, size)
    patterns = [pattern_features(text), *(pattern_features(t) for t in texts[1:])]
    return np.hstack([vectors, np.stack(patterns)]).astype(np.float32)


@dataclass(frozen=True)
class InjectionHead:
    """The fitted head: ``logit = row @ weights + bias``; the score is the sigmoid."""

    model: str
    weights: NDArray[np.float64]
    bias: float
    thresholds: dict[str, float]
    second: SecondStage | None = None

    @classmethod
    def from_json(cls, data: dict[str, object]) -> InjectionHead:
        weights = np.asarray(data["weights"], dtype=np.float64)
        width = get_embedder("use").dim + len(PATTERN_NAMES)
        if weights.shape != (width,):
            raise ValueError(f"injection head has {weights.shape} weights, expected {width}")
        thresholds = data["thresholds"]
        second = data.get("second_stage")
        assert isinstance(thresholds, dict) and (second is None or isinstance(second, dict))
        return cls(
            model=str(data["model"]),
            weights=weights,
            bias=float(str(data["bias"])),
            thresholds={str(k): float(v) for k, v in thresholds.items()},
            second=None if second is None else SecondStage.from_json(second),
        )

    def score_rows(self, rows: NDArray[np.float32]) -> float:
        """The score of one message from its feature rows (the highest row decides)."""
        logit = float((rows.astype(np.float64) @ self.weights).max()) + self.bias
        return float(1.0 / (1.0 + np.exp(-logit)))


@lru_cache(maxsize=1)
def get_head() -> InjectionHead:
    """The packaged head (read once per process)."""
    return InjectionHead.from_json(json.loads(HEAD_FILE.read_text(encoding="utf-8")))


@dataclass(frozen=True)
class InjectionResult:
    score: float
    families: list[str]

    def fired(self, sensitivity: Sensitivity = "medium") -> bool:
        """Whether the score reaches the threshold of ``sensitivity``."""
        return self.score >= get_head().thresholds[sensitivity]


_RESULTS: LRUCache[bytes, InjectionResult] = LRUCache(CACHE_MESSAGES)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def scores(texts: list[str]) -> list[float]:
    """Injection scores (0 benign … 1 attack) of ``texts``, embedded in one batch.

    The first stage reads USE and patterns; a score inside the second stage's band is
    replaced by the second stage's, which also reads e5 (``injection_cascade.py``). Runs of
    a repeated letter are cut first (``squeezed``)."""
    head = get_head()
    texts = [squeezed(t) for t in texts]
    per_text = [embedding_texts(t) for t in texts]
    flat = [part for parts in per_text for part in parts]
    vectors = TEXT_VECTORS.queries(get_embedder("use"), flat)
    out, rows, start = [], [], 0
    for text, parts in zip(texts, per_text, strict=True):
        rows.append(feature_rows(text, vectors[start : start + len(parts)]))
        out.append(head.score_rows(rows[-1]))
        start += len(parts)
    second = head.second
    unsure = [] if second is None else [i for i, score in enumerate(out) if second.reads(score)]
    if second is None or not unsure:
        return out
    per_e5 = [e5_texts(texts[i]) for i in unsure]
    e5 = TEXT_VECTORS.queries(get_embedder("e5"), [t for parts in per_e5 for t in parts])
    start = 0
    for i, parts in zip(unsure, per_e5, strict=True):
        views = view_rows(rows[i], e5[start : start + len(parts)])
        out[i] = second.score_rows(second.rows(views))
        start += len(parts)
    return out


def detect_injection(text: str) -> InjectionResult:
    """The injection score of ``text`` and the attack families its patterns matched.

    Cached by a hash of the text: a message resent in a later request is not scored again.
    """
    key = _digest(text)
    found = _RESULTS.get(key)
    if found is None:
        found = InjectionResult(scores([text])[0], families(text))
        _RESULTS.put(key, found)
    return found


def warm_up() -> None:
    """Loads the head and the encoders now, not during the first guarded request."""
    detect_injection("hola")
    if get_head().second is not None:
        get_embedder("e5")
