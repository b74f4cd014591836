"""Fitted constants of the decision model, read from ``calibration.json`` next to this module.

``python -m training.decide_calibration`` refits them on the development data and rewrites
the file; ``docs/decide.md`` says how each was fitted. Every calibrated map is a ``Linear``
function of a few named features that mean the same on any question (number of options,
margin, language, …), never a weight per dataset. ``parse`` refuses a file of another
model id or whose maps name features this code does not compute.
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
MODEL_ID = "vigia-decide-1.3.0"
# The features each map may weigh (``scoring.choice_features``, ``scoring.binary_features``;
# ``bias`` is the constant 1); the examples' map reads the choice features of the logits.
_CHOICE_FEATURES = ("bias", "log_options", "margin", "spread", "lang_es", "lang_pt")
_BINARY_FEATURES = ("bias", "ask_z", "state_z", "overlap", "cross_lingual", "lang_es", "lang_pt")
MAP_FEATURES: dict[str, tuple[str, ...]] = {
    "choice": _CHOICE_FEATURES,
    "binary": (*_BINARY_FEATURES, "pair", "familiarity", "familiarity_pair"),
    "examples": _CHOICE_FEATURES,
}


class CalibrationMismatch(ValueError):
    """A calibration file made for another model id or other features than this code reads."""


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
    ``scale_slope``/``scale_spacing`` the ordered logit of a
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

    def label_centroids(self) -> NDArray[np.float64]:
        """The matrix of ``familiar_labels`` (no rows when there is none)."""
        return label_centroids(self.familiar_labels)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("choice", "binary", "examples"):
            data[name] = data[name]["weights"]
        data["binary_pair"] = list(self.binary_pair)
        if not self.familiar_labels:  # none: the file reads as before the field existed
            del data["familiar_labels"]
        return data


def check_identity(data: dict[str, Any]) -> None:
    """Raise ``CalibrationMismatch`` unless ``data`` is ``MODEL_ID`` with known features."""
    if data.get("model") != MODEL_ID:
        raise CalibrationMismatch(
            f"calibration file holds model {data.get('model')!r}; this code reads {MODEL_ID!r}"
        )
    for name, known in MAP_FEATURES.items():
        unknown = sorted(set(data.get(name, {})) - set(known))
        if unknown:
            raise CalibrationMismatch(
                f"calibration {MODEL_ID}: the {name} map weighs features this code does not "
                f"compute: {', '.join(unknown)}"
            )


def parse(data: dict[str, Any]) -> Calibration:
    """A calibration from its JSON object (its model id and feature names checked first)."""
    check_identity(data)

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
