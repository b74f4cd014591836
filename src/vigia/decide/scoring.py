"""The decision model: a state's closeness to candidate texts, as calibrated probabilities.

Vectors are centred on the reference states (``reference``) and every candidate is read
by its *closeness*: how much closer the state is to it than ordinary states are. Then, per
question type, a calibrated map of a few features that mean the same on any question:

- **choice**: softmax of the closenesses times an inverse temperature ``exp(choice(f))``,
  ``f`` = number of options (log), margin between the two closest, language of the state.
  The temperature never changes which option is first, only how sure the answer is.
- **binary**: a yes/no task, not a one-option choice: the logit of ``yes`` is a linear
  function of how far above ordinary states the state sits on the ask (``ask_z``), how far
  the ask sits above ordinary asks for this state (``state_z``), the share of the ask's
  words found in the state (``overlap``), the languages, and a learned similarity of the
  state and the ask (``pair``: weights over ``[u ⊙ v, |u − v|]`` of their centred
  vectors, fitted on state/ask pairs of several datasets and languages), and how close the
  ask is to the labels that similarity was fitted on (``familiarity``: the similarity is
  surer of labels it has seen; at or above a threshold a second map, fitted on such
  labels, applies).
- **scale**: ordered. The levels' closenesses are reduced to one trend (closer to the high
  levels than to the low ones) and an ordered logit with evenly spaced cut points turns
  ``slope · trend`` into level probabilities, so ``value`` moves smoothly along the
  scale; the answer is the median level.

With labelled examples a question is decided by the classifier fitted on them
(``fewshot``); its logits get the examples' inverse temperature ``exp(examples(f))``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vigia.decide.calibration import Calibration
from vigia.decide.reference import Reference
from vigia.language import content_terms

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Reading:
    """A zero-shot question read against a state, before calibration.

    ``closeness`` per candidate (choice, scale; empty for binary); ``features``: the
    binary features, or the state's language features; ``pair``: binary only, the
    ``[u ⊙ v, |u − v|]`` vector the ``pair`` feature weighs (kept for fitting).
    """

    kind: str
    closeness: Array
    features: dict[str, float]
    pair: Array | None = None


def softmax(logits: Array) -> Array:
    shifted = np.exp(logits - logits.max())
    probabilities: Array = shifted / shifted.sum()
    return probabilities


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))


def confidence(probabilities: Array) -> float:
    """One minus the normalised entropy: 1 when certain, 0 when every answer is as likely."""
    count = len(probabilities)
    if count < 2:
        return 1.0
    p = probabilities[probabilities > 0]
    entropy = float(-(p * np.log(p)).sum())
    return min(1.0, max(0.0, 1.0 - entropy / math.log(count)))


def language_features(language: str) -> dict[str, float]:
    return {"lang_es": float(language == "es"), "lang_pt": float(language == "pt")}


def choice_features(closeness: Array, languages: dict[str, float]) -> dict[str, float]:
    """Features of a choice (or of the logits of a classifier) that any question has."""
    ordered = np.sort(closeness)[::-1]
    return {
        "log_options": math.log(len(closeness)),
        "margin": float(ordered[0] - ordered[1]),
        "spread": float(closeness.std()),
        **languages,
    }


def choice_probabilities(
    closeness: Array, languages: dict[str, float], calibration: Calibration
) -> Array:
    """Probabilities over the options of a zero-shot choice."""
    inverse_temperature = math.exp(calibration.choice(choice_features(closeness, languages)))
    return softmax(closeness * inverse_temperature)


def word_overlap(state_terms: set[str], ask: str) -> float:
    """Share of the ask's content words (stemmed) found in the state."""
    terms = set(content_terms(ask))
    return len(terms & state_terms) / len(terms) if terms else 0.0


def pair_vector(state: Array, ask: Array) -> Array:
    """What the learned similarity reads: ``[u ⊙ v, |u − v|]`` of two centred vectors."""
    return np.concatenate([state * ask, np.abs(state - ask)])


def pair_score(pair: Array, weights: tuple[float, ...]) -> float:
    """The learned similarity (0 when the calibration has none)."""
    if not weights:
        return 0.0
    if len(weights) != len(pair):
        raise ValueError(f"binary_pair has {len(weights)} weights for {len(pair)} features")
    return float(pair @ np.asarray(weights))


def familiarity(ask: Array, centroids: Array) -> float:
    """The ask's highest cosine to the centroids of the labels the similarity was fitted on
    (centred, normalised vectors; 0 when the calibration stores none)."""
    if not len(centroids):
        return 0.0
    return float((centroids @ ask).max())


def binary_features(
    reference: Reference,
    state: Array,
    ask: Array,
    overlap: float,
    state_language: str,
    ask_language: str,
    pair: float = 0.0,
    familiar: float = 0.0,
) -> dict[str, float]:
    """Features of a zero-shot yes/no question (centred state and ask vectors; ``familiar``:
    the ask's ``familiarity``)."""
    return {
        "ask_z": reference.ask_z(state, ask),
        "state_z": reference.state_z(state, ask),
        "overlap": overlap,
        "cross_lingual": float(state_language != ask_language),
        **language_features(state_language),
        "pair": pair,
        "familiarity": familiar,
        "familiarity_pair": familiar * pair,
    }


def yes_probability(features: dict[str, float], calibration: Calibration) -> float:
    """Probability of ``yes`` to a zero-shot binary question."""
    return sigmoid(calibration.binary(features))


def trend(closeness: Array) -> float:
    """How much closer the state is to the highest level than to the lowest, along the
    least-squares line of the levels' closenesses over their rank."""
    ranks = np.arange(len(closeness), dtype=np.float64)
    ranks -= ranks.mean()
    return float(ranks @ closeness / (ranks @ ranks)) * (len(closeness) - 1)


def ordered_probabilities(latent: float, levels: int, spacing: float) -> Array:
    """Ordered logit: P(level ≤ k) = σ(cut_k − latent), cut points evenly spaced around 0."""
    cuts = spacing * (np.arange(levels - 1) - (levels - 2) / 2)
    below = 1.0 / (1.0 + np.exp(-(cuts - latent)))
    cumulative = np.concatenate([[0.0], below, [1.0]])
    return np.maximum(np.diff(cumulative), 0.0)


def scale_probabilities(closeness: Array, calibration: Calibration) -> Array:
    """Probabilities over the levels of a zero-shot scale question."""
    latent = calibration.scale_slope * trend(closeness)
    return ordered_probabilities(latent, len(closeness), calibration.scale_spacing)


def examples_probabilities(logits: Array, language: str, calibration: Calibration) -> Array:
    """Probabilities from the logits of a classifier fitted on a question's examples."""
    features = choice_features(logits, language_features(language))
    return softmax(logits * math.exp(calibration.examples(features)))


def median_index(probabilities: Array) -> int:
    """The level where the cumulative probability first reaches one half."""
    return int(np.searchsorted(np.cumsum(probabilities), 0.5 - 1e-12))


def calibrated(reading: Reading, calibration: Calibration) -> Array:
    """Probabilities of a zero-shot reading (binary: ``[yes, no]``)."""
    if reading.kind == "binary":
        yes = yes_probability(reading.features, calibration)
        return np.array([yes, 1.0 - yes])
    if reading.kind == "scale":
        return scale_probabilities(reading.closeness, calibration)
    return choice_probabilities(reading.closeness, reading.features, calibration)
