"""Classifiers fitted at request time on a question's labelled ``examples``.

A question with examples is decided by a multinomial logistic regression fitted on the
example vectors plus one row per candidate text (weight ``text_weight``, so an option
without examples still has its name). Features: for each encoder of the examples path,
the vector minus the mean of the training rows, re-normalised and scaled by the square
root of the encoder's weight; the encoders' parts are concatenated. L2 penalty ``l2`` on
the weights (not on the biases), minimised by L-BFGS in float64 from zeros with a fixed
iteration cap: the same inputs give the same classifier, so the same answers.

Fitted classifiers are cached by a hash of everything they were fitted on (encoders,
penalty, texts, examples and labels): a repeated question pays neither the fit nor the
example embeddings.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Vectors = dict[str, NDArray[np.float32]]
CACHE_CLASSIFIERS = 256
MAX_ITERATIONS = 300
GRADIENT_TOLERANCE = 1e-7


def features(vectors: Vectors, means: dict[str, Array], weights: dict[str, float]) -> Array:
    """Centred, re-normalised, weighted and concatenated encoder vectors (one row each)."""
    parts = []
    for name, weight in weights.items():
        centred = vectors[name].astype(np.float64) - means[name]
        norms = np.linalg.norm(centred, axis=1, keepdims=True)
        parts.append(centred / np.maximum(norms, 1e-12) * math.sqrt(weight))
    return np.hstack(parts)


def _with_bias(matrix: Array) -> Array:
    return np.hstack([matrix, np.ones((len(matrix), 1))])


@dataclass(frozen=True)
class Classifier:
    """A fitted multinomial logistic regression over the candidates of one question."""

    means: dict[str, Array]
    weights: dict[str, float]
    coefficients: Array  # (features + 1, candidates), last row the biases

    def logits(self, vectors: Vectors) -> Array:
        """One row of candidate logits per input row."""
        return _with_bias(features(vectors, self.means, self.weights)) @ self.coefficients


def lbfgs(
    objective: Callable[[Array], tuple[float, Array]],
    start: Array,
    iterations: int = MAX_ITERATIONS,
    memory: int = 10,
) -> Array:
    """Minimises a smooth convex ``objective`` (value, gradient) by L-BFGS with backtracking."""
    x = start.copy()
    value, gradient = objective(x)
    steps: list[tuple[Array, Array, float]] = []
    for _ in range(iterations):
        if float(np.abs(gradient).max()) < GRADIENT_TOLERANCE:
            break
        direction = -gradient
        alphas = []
        for s, y, rho in reversed(steps):
            alpha = rho * float(s @ direction)
            direction = direction - alpha * y
            alphas.append(alpha)
        if steps:
            s, y, _ = steps[-1]
            direction = direction * (float(s @ y) / float(y @ y))
        else:
            direction = direction / max(1e-12, float(np.linalg.norm(gradient)))
        for (s, y, rho), alpha in zip(steps, reversed(alphas), strict=True):
            beta = rho * float(y @ direction)
            direction = direction + s * (alpha - beta)
        slope = float(gradient @ direction)
        if slope >= 0:
            direction, slope = -gradient, -float(gradient @ gradient)
        step = 1.0
        while True:
            candidate = x + step * direction
            new_value, new_gradient = objective(candidate)
            if new_value <= value + 1e-4 * step * slope or step < 1e-12:
                break
            step /= 2
        s, y = candidate - x, new_gradient - gradient
        if float(s @ y) > 1e-12:
            steps.append((s, y, 1.0 / float(s @ y)))
            steps = steps[-memory:]
        x, value, gradient = candidate, new_value, new_gradient
    return x


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
    x = _with_bias(features(rows, means, weights))
    count, width = x.shape
    targets = np.zeros((count, candidates))
    targets[np.arange(count), labels] = 1.0
    share = row_weights / row_weights.sum()
    penalised = np.ones((width, 1))
    penalised[-1] = 0.0

    def objective(flat: Array) -> tuple[float, Array]:
        coefficients = flat.reshape(width, candidates)
        logits = x @ coefficients
        logits -= logits.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(logits).sum(axis=1))
        probabilities = np.exp(logits - log_norm[:, None])
        loss = float(-(share * (logits[np.arange(count), labels] - log_norm)).sum())
        loss += 0.5 * l2 * float(((coefficients * penalised) ** 2).sum())
        gradient = x.T @ ((probabilities - targets) * share[:, None])
        gradient += l2 * coefficients * penalised
        return loss, gradient.ravel()

    solution = lbfgs(objective, np.zeros(width * candidates))
    return Classifier(means, dict(weights), solution.reshape(width, candidates))


def fingerprint(*parts: object) -> str:
    """A stable hash of what a classifier is fitted on."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class ClassifierCache:
    """A bounded, thread-safe LRU of fitted classifiers by fingerprint."""

    def __init__(self, capacity: int = CACHE_CLASSIFIERS) -> None:
        self._items: OrderedDict[str, Classifier] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, key: str) -> Classifier | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, classifier: Classifier) -> None:
        with self._lock:
            self._items[key] = classifier
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


CLASSIFIERS = ClassifierCache()
