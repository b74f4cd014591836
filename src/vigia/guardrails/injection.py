"""Prompt-injection and jailbreak detection for Spanish, Portuguese and English.

No packaged injection model with weights is usable offline (see FACTS.md), so the detector
is built here from three parts:

1. hand-written attack patterns (``patterns.py``), narrow enough that trigger words in
   ordinary requests ("ignorá el mensaje anterior", "instrucciones de instalación") do not
   match;
2. a multilingual sentence embedding of the message (``vigia.embeddings``, USE v3);
3. a logistic regression over [embedding, pattern features] (``vigia.logistic``, penalty
   ``L2``), fitted once per process on the training split that ships with the package
   (``data/injection_train.txt``, ~240 labelled prompts; fitting takes well under a
   second). The held-out evaluation set lives in ``bench/data/guardrails/`` and is never
   read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from vigia.embeddings import TEXT_VECTORS, get_embedder
from vigia.guardrails.patterns import FAMILIES, families
from vigia.logistic import fit_binary

TRAIN_FILE = Path(__file__).parent / "data" / "injection_train.txt"
THRESHOLD = 0.5
L2 = 1e-2
PATTERN_NAMES = (*FAMILIES, "encoded", "obfuscated")
MAX_CHARS = 2000
"""Only the first and last 1,000 characters are embedded: attacks sit at either end."""


@dataclass(frozen=True)
class Example:
    label: int
    lang: str
    text: str


def read_examples(path: Path) -> list[Example]:
    """Labelled prompts from a ``label<TAB>lang<TAB>text`` file (``#`` lines are comments)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, lang, text = line.split("\t", 2)
        out.append(Example(int(label), lang, text))
    return out


def pattern_features(text: str) -> NDArray[np.float32]:
    """One indicator per attack family plus the total count, scaled like the embedding."""
    found = families(text)
    row = [1.0 if name in found else 0.0 for name in FAMILIES]
    row.append(1.0 if any(f.startswith("encoded_") for f in found) else 0.0)
    row.append(1.0 if "obfuscated" in found else 0.0)
    row.append(min(len(found), 3) / 3)
    return np.asarray(row, dtype=np.float32)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[:1000] + " … " + text[-1000:]


def features(texts: list[str]) -> NDArray[np.float32]:
    """The classifier's input rows: embedding followed by pattern features."""
    vectors = TEXT_VECTORS.queries(get_embedder("use"), [_clip(t) for t in texts])
    patterns = np.stack([pattern_features(t) for t in texts])
    return np.hstack([vectors, patterns]).astype(np.float32)


class InjectionDetector:
    """Scores a message from 0 (benign) to 1 (attack)."""

    def __init__(self, examples: list[Example]) -> None:
        x = features([e.text for e in examples])
        y = np.asarray([e.label for e in examples], dtype=np.float32)
        self.weights, self.bias = fit_binary(x, y, L2)

    def score(self, text: str) -> float:
        """Probability-like score that ``text`` is a prompt injection or jailbreak."""
        return float(self.scores([text])[0])

    def scores(self, texts: list[str]) -> NDArray[np.float64]:
        x = features(texts)
        pattern_hits = x[:, -1] > 0
        probs = 1.0 / (1.0 + np.exp(-(x @ self.weights + self.bias)))
        # A matched attack pattern is strong evidence on its own.
        return np.where(pattern_hits, np.maximum(probs, 0.5 + probs / 2), probs)


@lru_cache(maxsize=1)
def get_detector() -> InjectionDetector:
    """The process-wide detector, fitted on first use from the packaged training split."""
    return InjectionDetector(read_examples(TRAIN_FILE))


@dataclass(frozen=True)
class InjectionResult:
    score: float
    families: list[str]

    @property
    def fired(self) -> bool:
        return self.score >= THRESHOLD


def detect_injection(text: str) -> InjectionResult:
    """The injection score of ``text`` and the attack families its patterns matched."""
    return InjectionResult(get_detector().score(text), families(text))
