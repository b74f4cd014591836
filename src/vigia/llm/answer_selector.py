"""The trained answer-sentence selector: how likely a passage sentence answers a message.

A logistic model over ``vigia.llm.sentence_features`` rows: ``P(answers) = sigmoid(row @
weights + bias)``. Its weights, the features they expect and the figures they were chosen on
live in ``data/answer_selector.json``, written by ``python -m training.answer_selector``
from a public reading-comprehension set (docs/knowledge.md); nothing is fitted at run time.
The file's ``model`` names the version, which ``selector().model`` reports; a file of
another model id or other feature names than this code computes is refused.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vigia.llm.sentence_features import FEATURE_NAMES

SELECTOR_FILE = Path(__file__).parent / "data" / "answer_selector.json"
MODEL_ID = "vigia-answer-selector-1.0.0"


@dataclass(frozen=True)
class AnswerSelector:
    """Fitted weights (one per ``FEATURE_NAMES`` column) and bias."""

    model: str
    weights: NDArray[np.float32]
    bias: float

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AnswerSelector:
        if data.get("model") != MODEL_ID:
            raise ValueError(
                f"answer selector file holds model {data.get('model')!r}; this code reads "
                f"{MODEL_ID!r}"
            )
        names = tuple(data["features"])
        if names != FEATURE_NAMES:
            raise ValueError(
                f"answer selector {data.get('model')} expects other features than "
                "vigia.llm.sentence_features computes; refit it (python -m "
                "training.answer_selector)"
            )
        weights = np.asarray(data["weights"], dtype=np.float32)
        if weights.shape != (len(FEATURE_NAMES),):
            raise ValueError(f"answer selector has {weights.shape} weights")
        return cls(model=str(data["model"]), weights=weights, bias=float(data["bias"]))

    def probabilities(self, rows: NDArray[np.float32]) -> NDArray[np.float64]:
        """For each feature row, the probability that its sentence answers the message."""
        logits = rows.astype(np.float64) @ self.weights.astype(np.float64) + self.bias
        return 1.0 / (1.0 + np.exp(-logits))


def load_selector(path: Path) -> AnswerSelector:
    """The selector stored at ``path``."""
    return AnswerSelector.from_json(json.loads(path.read_text(encoding="utf-8")))


@lru_cache(maxsize=1)
def selector() -> AnswerSelector:
    """The selector shipped with the package (read once per process)."""
    return load_selector(SELECTOR_FILE)
