"""The decision model: similarities of a state to candidate texts, as calibrated probabilities.

One mechanism serves the three question types. Each candidate (a choice option, a scale
level, the ``yes`` of a binary question) has a text; the state and the texts are embedded
by one or more multilingual encoders, their cosine similarities are combined with fixed
weights and divided by a fitted temperature, and a softmax turns them into probabilities.
A binary question has one text (its ask as a statement) scored against a fitted bias, so
its probability is a logistic function of the similarity.

With labelled examples a question is decided instead by a classifier fitted on them
(``fewshot``); its logits go through the examples temperature.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from vigia.decide.calibration import Calibration
from vigia.decide.fewshot import Classifier

Matrix = NDArray[np.float32]
Vectors = dict[str, Matrix]


def similarities(
    state: Vectors,
    candidates: Vectors,
    weights: dict[str, float],
) -> NDArray[np.float64]:
    """Weighted cosine of the state (one row per encoder) to each candidate."""
    total: NDArray[np.float64] | None = None
    for name, weight in weights.items():
        vectors = candidates[name]
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
    classifier: Classifier | None = None,
) -> NDArray[np.float64]:
    """Probabilities over the candidates of a choice or scale question."""
    if classifier is not None:
        return softmax(classifier.logits(state)[0] / calibration.temperature_examples)
    scores = similarities(state, candidates, calibration.encoders)
    return softmax(scores / calibration.temperature)


def yes_probability(
    state: Vectors,
    ask: Vectors,
    calibration: Calibration,
    classifier: Classifier | None = None,
) -> float:
    """Probability of ``yes`` to a binary question.

    Without examples of both answers: logistic in the similarity to the ask, around the
    fitted bias. With them: the two-way classifier (``yes`` = the ask and the ``true``
    examples, ``no`` = the ``false`` examples).
    """
    if classifier is not None:
        return float(softmax(classifier.logits(state)[0] / calibration.temperature_examples)[0])
    score = float(similarities(state, ask, calibration.encoders)[0])
    logit = (score - calibration.binary_bias) / calibration.binary_temperature
    return float(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, logit)))))
