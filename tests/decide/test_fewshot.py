"""The classifier fitted on examples: fit, determinism and the cache (no encoder)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.decide.helpers import HashEmbedder
from vigia.decide import fewshot, inference
from vigia.decide.calibration import get_calibration
from vigia.decide.encoder import TextEncoder
from vigia.decide.texts import StateText
from vigia.kit.cache import LRUCache


def _clusters(seed: int = 0) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Three well separated clusters of unit vectors in 16 dimensions, 4 rows each."""
    rng = np.random.default_rng(seed)
    centres = np.eye(16)[:3] * 3
    rows = np.vstack([c + rng.normal(scale=0.3, size=(4, 16)) for c in centres])
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return {"use": rows.astype(np.float32)}, np.repeat(np.arange(3), 4)


def test_fit_learns_the_labels_and_is_deterministic() -> None:
    rows, labels = _clusters()
    first = fewshot.fit(rows, labels, np.ones(len(labels)), 3, {"use": 1.0}, 1e-3)
    second = fewshot.fit(rows, labels, np.ones(len(labels)), 3, {"use": 1.0}, 1e-3)
    assert np.array_equal(first.coefficients, second.coefficients)
    assert (first.logits(rows).argmax(axis=1) == labels).all()
    fresh, _ = _clusters(seed=1)
    assert (first.logits(fresh).argmax(axis=1) == labels).all()


def test_stronger_penalty_gives_smaller_logits() -> None:
    rows, labels = _clusters()
    weak = fewshot.fit(rows, labels, np.ones(len(labels)), 3, {"use": 1.0}, 1e-4)
    strong = fewshot.fit(rows, labels, np.ones(len(labels)), 3, {"use": 1.0}, 1e-1)
    assert np.ptp(strong.logits(rows), axis=1).mean() < np.ptp(weak.logits(rows), axis=1).mean()


def test_fingerprint_changes_with_any_label() -> None:
    examples = [("hola", 0), ("adios", 1)]
    assert fewshot.fingerprint(["a", "b"], examples) == fewshot.fingerprint(["a", "b"], examples)
    assert fewshot.fingerprint(["a", "b"], examples) != fewshot.fingerprint(
        ["a", "b"], [("hola", 1), ("adios", 1)]
    )


def test_a_repeated_question_reuses_its_classifier(monkeypatch: pytest.MonkeyPatch) -> None:
    # Fake encoder: only the number of fits matters here, not what the texts mean.
    encoder = TextEncoder({"use": HashEmbedder(), "e5": HashEmbedder()})
    monkeypatch.setattr(fewshot, "CLASSIFIERS", LRUCache(fewshot.CACHE_CLASSIFIERS))
    fits: list[int] = []
    real_fit = fewshot.fit

    def counting_fit(*args: Any) -> fewshot.Classifier:
        fits.append(1)
        return real_fit(*args)

    monkeypatch.setattr(fewshot, "fit", counting_fit)
    examples = [(StateText("uno", ""), 0), (StateText("dos", ""), 1)]
    plan = inference.Plan("choice", ["a", "b"], ["a", "b"], examples)
    first = inference.run_model("tres", [plan], encoder, get_calibration())
    second = inference.run_model("cuatro", [plan], encoder, get_calibration())
    again = inference.run_model("tres", [plan], encoder, get_calibration())
    assert len(fits) == 1
    assert np.array_equal(first[0].probabilities, again[0].probabilities)
    assert not np.array_equal(first[0].probabilities, second[0].probabilities)
