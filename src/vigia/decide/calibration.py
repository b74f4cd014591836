"""Fitted constants of the decision model, read from ``calibration.json`` next to this module.

``bench/decide_eval.py --fit`` refits them on the development data and rewrites the file;
``docs/decide.md`` says how each was fitted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")


@dataclass(frozen=True)
class Calibration:
    """Everything the model needs beyond the encoders' weights.

    ``encoders``/``temperature``: the zero-shot path (cosine to candidate texts).
    ``encoders_examples``/``l2_examples``/``text_weight``/``temperature_examples``: the
    classifier fitted on a question's examples (``fewshot``).
    """

    model: str
    encoders: dict[str, float]
    temperature: float
    temperature_examples: float
    binary_temperature: float
    binary_bias: float
    text_weight: float
    encoders_examples: dict[str, float] = field(default_factory=dict)
    l2_examples: float = 1e-5
    default_min_confidence: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "model": self.model,
            "encoders": self.encoders,
            "temperature": self.temperature,
            "temperature_examples": self.temperature_examples,
            "binary_temperature": self.binary_temperature,
            "binary_bias": self.binary_bias,
            "text_weight": self.text_weight,
            "encoders_examples": self.encoders_examples,
            "l2_examples": self.l2_examples,
            "default_min_confidence": self.default_min_confidence,
        }


def parse(data: dict[str, object]) -> Calibration:
    """A calibration from its JSON object."""
    encoders = data["encoders"]
    examples = data["encoders_examples"]
    defaults = data["default_min_confidence"]
    assert isinstance(encoders, dict) and isinstance(examples, dict)
    assert isinstance(defaults, dict)
    return Calibration(
        model=str(data["model"]),
        encoders={str(k): float(v) for k, v in encoders.items()},
        temperature=float(data["temperature"]),  # type: ignore[arg-type]
        temperature_examples=float(data["temperature_examples"]),  # type: ignore[arg-type]
        binary_temperature=float(data["binary_temperature"]),  # type: ignore[arg-type]
        binary_bias=float(data["binary_bias"]),  # type: ignore[arg-type]
        text_weight=float(data["text_weight"]),  # type: ignore[arg-type]
        encoders_examples={str(k): float(v) for k, v in examples.items()},
        l2_examples=float(data["l2_examples"]),  # type: ignore[arg-type]
        default_min_confidence={str(k): float(v) for k, v in defaults.items()},
    )


@lru_cache(maxsize=1)
def get_calibration() -> Calibration:
    """The shipped calibration."""
    return parse(json.loads(CALIBRATION_FILE.read_text()))
