"""Prompt-injection and jailbreak detection: a fine-tuned multilingual encoder.

The classifier is multilingual-e5-small fine-tuned end to end on public labelled prompts
(``vigia-injection-2.0.0``, ``injection_model.py``; model card docs/models/). It reads a
message of at most ``WHOLE_CHARS`` characters in one window; a longer one as its clipped
whole (first and last 1,000 characters, read as its first and last tokens) and its
segments of a few sentences (``injection_text.segments``, at most 24), so that an
instruction hidden in the middle of a pasted document is read on its own. The score is the
highest. The hand-written attack patterns (``patterns.py``) only name the families in the
verdict's detail.

Scores are cached by a hash of the message, so a conversation history that the client
resends costs one lookup per message.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache

from vigia.guardrails.config import Sensitivity
from vigia.guardrails.injection_model import InjectionModel, load_model
from vigia.guardrails.injection_text import clipped, segments, squeezed
from vigia.guardrails.patterns import families
from vigia.kit.cache import LRUCache

CACHE_MESSAGES = 20_000
WHOLE_CHARS = 500  # about the 126 content tokens of one window in es/pt/en


@lru_cache(maxsize=1)
def get_model() -> InjectionModel:
    """The packaged classifier (loaded and checked once per process)."""
    return load_model()


def reading_texts(text: str) -> list[str]:
    """What the model reads of ``text``: the whole, or the clipped whole and its segments."""
    if len(text) <= WHOLE_CHARS:
        return [text]
    parts = segments(text)
    return [clipped(text), *(parts if len(parts) > 1 else [])]


@dataclass(frozen=True)
class InjectionResult:
    score: float
    families: list[str]

    def fired(self, sensitivity: Sensitivity = "medium") -> bool:
        """Whether the score reaches the threshold of ``sensitivity``."""
        return self.score >= get_model().thresholds[sensitivity]


_RESULTS: LRUCache[bytes, InjectionResult] = LRUCache(CACHE_MESSAGES)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def scores(texts: list[str]) -> list[float]:
    """Injection scores (0 benign … 1 attack) of ``texts``, read in one batch.

    Runs of a repeated letter are cut first (``squeezed``)."""
    per_text = [reading_texts(squeezed(t)) for t in texts]
    flat = get_model().attack_probabilities([part for parts in per_text for part in parts])
    out, start = [], 0
    for parts in per_text:
        out.append(max(flat[start : start + len(parts)]))
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
    """Loads the classifier now, not during the first guarded request."""
    detect_injection("hola")
