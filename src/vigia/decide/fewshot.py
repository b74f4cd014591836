"""Classifiers fitted at request time on a question's labelled ``examples``.

A question with examples is decided by a multinomial logistic regression fitted on the
example vectors plus one row per candidate text (weight ``text_weight``, so an option
without examples still has its name). Features: for each encoder of the examples path,
the vector minus the mean of the training rows, re-normalised and scaled by the square
root of the encoder's weight; the encoders' parts are concatenated. L2 penalty ``l2`` on
the weights (not on the biases), minimised by the package's L-BFGS trainer
(``vigia.kit.logistic``): the same inputs give the same classifier, so the same answers.

Fitted classifiers are cached by a hash of everything they were fitted on (encoders,
penalty, texts, examples and labels): a repeated question pays neither the fit nor the
example embeddings.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vigia.kit.cache import LRUCache
from vigia.kit.logistic import fit_multinomial, with_intercept

Array = NDArray[np.float64]
Vectors = dict[str, NDArray[np.float32]]
CACHE_CLASSIFIERS = 256


def features(vectors: Vectors, means: dict[str, Array], weights: dict[str, float]) -> Array:
    """Centred, re-normalised, weighted and concatenated encoder vectors (one row each)."""
    parts = []
    for name, weight in weights.items():
        centred = vectors[name].astype(np.float64) - means[name]
        norms = np.linalg.norm(centred, axis=1, keepdims=True)
        parts.append(centred / np.maximum(norms, 1e-12) * math.sqrt(weight))
    return np.hstack(parts)


@dataclass(frozen=True)
class Classifier:
    """A fitted multinomial logistic regression over the candidates of one question."""

    means: dict[str, Array]
    weights: dict[str, float]
    coefficients: Array  # (features + 1, candidates), last row the biases

    def logits(self, vectors: Vectors) -> Array:
        """One row of candidate logits per input row."""
        return with_intercept(features(vectors, self.means, self.weights)) @ self.coefficients


def fit(
    rows: Vectors,
    labels: NDArray[np.int64],
    row_weights: Array,
    candidates: int,
    weights: dict[str, float],
    l2: float,
) -> Classifier:
    """Fits a classifier on labelled rows (examples and candidate texts)."""
    means = {name: rows[name].astype(np.float64).mean(axis=0) for name in weights}
    x = features(rows, means, weights)
    coefficients = fit_multinomial(x, labels, candidates, l2, row_weights)
    return Classifier(means, dict(weights), coefficients)


def fingerprint(*parts: object) -> str:
    """A stable hash of what a classifier is fitted on."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


CLASSIFIERS: LRUCache[str, Classifier] = LRUCache(CACHE_CLASSIFIERS)
