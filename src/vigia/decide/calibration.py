"""Fitted constants of the decision model, read from ``calibration.json`` next to this module.

``bench/decide_eval.py --fit`` refits them on the development data and rewrites the file;
``docs/decide.md`` says how each was fitted. Every calibrated map is a ``Linear`` function
of a few named features that mean the same on any question (number of options, margin,
language, …), never a weight per dataset.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")
TYPES = ("choice", "scale", "binary")


@dataclass(frozen=True)
class Linear:
    """``Σ weight · feature`` over named features (``bias`` is the constant 1)."""

    weights: dict[str, float]

    def __call__(self, features: dict[str, float]) -> float:
        return sum(
            weight * (1.0 if name == "bias" else features[name])
            for name, weight in self.weights.items()
        )


@dataclass(frozen=True)
class Calibration:
    """Everything the model needs beyond the encoders.

    Zero-shot (``encoder``): ``choice`` is the log inverse temperature of the options'
    softmax; ``binary`` the logit of ``yes``, whose ``pair`` feature is the learned
    similarity ``binary_pair · [u ⊙ v, |u − v|]`` of the centred state and ask vectors
    (empty: no such feature), and its ``familiarity`` feature the ask's highest cosine to
    the rows of ``familiar_labels`` (a float16 ``.npy`` next to this module: one centred,
    normalised centroid per label the similarity was fitted on; empty: no such feature);
    ``binary_seen`` the logit of ``yes`` for asks whose familiarity reaches
    ``familiar_threshold`` (labels like those the similarity was fitted on; empty: ``binary``
    applies to every ask); ``scale_slope``/``scale_spacing`` the ordered logit of a
    scale. With examples: the classifier's encoders, penalty, candidate-text
    weight, and ``examples`` the log inverse temperature of its logits. Defaults of
    ``min_confidence`` per type, zero-shot and with examples.
    """

    model: str
    encoder: str
    facts_weight: float
    choice: Linear
    binary: Linear
    scale_slope: float
    scale_spacing: float
    encoders_examples: dict[str, float]
    l2_examples: float
    text_weight: float
    examples: Linear
    default_min_confidence: dict[str, float] = field(default_factory=dict)
    default_min_confidence_examples: dict[str, float] = field(default_factory=dict)
    binary_pair: tuple[float, ...] = ()
    familiar_labels: str = ""
    binary_seen: Linear = field(default_factory=lambda: Linear({}))
    familiar_threshold: float = 0.0

    def label_centroids(self) -> NDArray[np.float64]:
        """The matrix of ``familiar_labels`` (no rows when there is none)."""
        return label_centroids(self.familiar_labels)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("choice", "binary", "examples", "binary_seen"):
            data[name] = data[name]["weights"]
        data["binary_pair"] = list(self.binary_pair)
        if not self.familiar_labels:  # none: the file reads as before the field existed
            del data["familiar_labels"]
        if not self.binary_seen.weights:  # one binary map, as before the step existed
            del data["binary_seen"], data["familiar_threshold"]
        return data


def parse(data: dict[str, Any]) -> Calibration:
    """A calibration from its JSON object."""

    def floats(value: dict[str, Any]) -> dict[str, float]:
        return {str(k): float(v) for k, v in value.items()}

    return Calibration(
        model=str(data["model"]),
        encoder=str(data["encoder"]),
        facts_weight=float(data["facts_weight"]),
        choice=Linear(floats(data["choice"])),
        binary=Linear(floats(data["binary"])),
        scale_slope=float(data["scale_slope"]),
        scale_spacing=float(data["scale_spacing"]),
        encoders_examples=floats(data["encoders_examples"]),
        l2_examples=float(data["l2_examples"]),
        text_weight=float(data["text_weight"]),
        examples=Linear(floats(data["examples"])),
        default_min_confidence=floats(data["default_min_confidence"]),
        default_min_confidence_examples=floats(data["default_min_confidence_examples"]),
        binary_pair=tuple(float(w) for w in data.get("binary_pair", [])),
        familiar_labels=str(data.get("familiar_labels", "")),
        binary_seen=Linear(floats(data.get("binary_seen", {}))),
        familiar_threshold=float(data.get("familiar_threshold", 0.0)),
    )


@lru_cache(maxsize=4)
def label_centroids(name: str) -> NDArray[np.float64]:
    """The per-label centroids stored in ``name`` (next to this module unless absolute)."""
    if not name:
        return np.zeros((0, 0))
    centroids: NDArray[np.float64] = np.load(CALIBRATION_FILE.parent / name).astype(np.float64)
    return centroids


@lru_cache(maxsize=1)
def get_calibration() -> Calibration:
    """The shipped calibration."""
    return parse(json.loads(CALIBRATION_FILE.read_text()))
