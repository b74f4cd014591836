"""The decision model: similarities of a state to candidate texts, as calibrated probabilities.

One mechanism serves the three question types. Each candidate (a choice option, a scale
level, the ``yes`` of a binary question) has a text; the state and the texts are embedded
by one or more multilingual encoders, their cosine similarities are combined with fixed
weights and divided by a fitted temperature, and a softmax turns them into probabilities.
A binary question has one text (its ask as a statement) scored against a fitted bias, so
its probability is a logistic function of the similarity.

With labelled examples each candidate's vector becomes a prototype: the normalised sum of
its text vector (times ``text_weight``) and its examples' vectors; a second temperature,
fitted for prototypes, applies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vigia.decide.calibration import Calibration

Matrix = NDArray[np.float32]
Vectors = dict[str, Matrix]


@dataclass(frozen=True)
class LabelledVectors:
    """Example vectors per encoder and the candidate index each example answers."""

    vectors: Vectors
    labels: NDArray[np.int64]


def _normalise(matrix: NDArray[np.float64]) -> NDArray[np.float64]:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


def prototypes(texts: Matrix, examples: Matrix, labels: NDArray[np.int64], weight: float) -> Matrix:
    """Each candidate's text vector times ``weight`` plus its examples' vectors, normalised."""
    summed = texts.astype(np.float64) * weight
    np.add.at(summed, labels, examples.astype(np.float64))
    return _normalise(summed).astype(np.float32)


def similarities(
    state: Vectors,
    candidates: Vectors,
    weights: dict[str, float],
    examples: LabelledVectors | None = None,
    text_weight: float = 1.0,
) -> NDArray[np.float64]:
    """Weighted cosine of the state (one row per encoder) to each candidate."""
    total: NDArray[np.float64] | None = None
    for name, weight in weights.items():
        vectors = candidates[name]
        if examples is not None:
            vectors = prototypes(vectors, examples.vectors[name], examples.labels, text_weight)
        scores = weight * (vectors.astype(np.float64) @ state[name][0].astype(np.float64))
        total = scores if total is None else total + scores
    assert total is not None
    return total


def softmax(logits: NDArray[np.float64]) -> NDArray[np.float64]:
    shifted = np.exp(logits - logits.max())
    return shifted / shifted.sum()


def confidence(probabilities: NDArray[np.float64]) -> float:
    """One minus the normalised entropy: 1 when certain, 0 when every answer is as likely."""
    count = len(probabilities)
    if count < 2:
        return 1.0
    p = probabilities[probabilities > 0]
    entropy = float(-(p * np.log(p)).sum())
    return min(1.0, max(0.0, 1.0 - entropy / math.log(count)))


def distribution(
    state: Vectors,
    candidates: Vectors,
    calibration: Calibration,
    examples: LabelledVectors | None = None,
) -> NDArray[np.float64]:
    """Probabilities over the candidates of a choice or scale question."""
    scores = similarities(
        state, candidates, calibration.encoders, examples, calibration.text_weight
    )
    temperature = calibration.temperature if examples is None else calibration.temperature_examples
    return softmax(scores / temperature)


def yes_probability(
    state: Vectors,
    ask: Vectors,
    calibration: Calibration,
    examples: LabelledVectors | None = None,
) -> float:
    """Probability of ``yes`` to a binary question.

    Without examples of both answers: logistic in the similarity to the ask, around the
    fitted bias. With them: a two-way choice between the ``yes`` prototype (the ask and
    the ``true`` examples) and the ``no`` prototype (the ``false`` examples).
    """
    if examples is not None and {0, 1} <= set(examples.labels.tolist()):
        candidates = {name: np.vstack([ask[name], np.zeros_like(ask[name])]) for name in ask}
        scores = similarities(
            state, candidates, calibration.encoders, examples, calibration.text_weight
        )
        return float(softmax(scores / calibration.temperature_examples)[0])
    score = float(similarities(state, ask, calibration.encoders)[0])
    logit = (score - calibration.binary_bias) / calibration.binary_temperature
    return float(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, logit)))))
