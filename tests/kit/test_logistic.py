"""The package's one logistic trainer: optimiser, multinomial and binary fits."""

from __future__ import annotations

import numpy as np
import pytest

from vigia.kit.logistic import fit_binary, fit_multinomial, lbfgs, with_intercept


def test_lbfgs_finds_the_minimum_of_a_quadratic() -> None:
    matrix = np.array([[3.0, 1.0], [1.0, 2.0]])
    target = np.array([1.0, -2.0])

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        delta = x - target
        return float(0.5 * delta @ matrix @ delta), matrix @ delta

    assert lbfgs(objective, np.zeros(2)) == pytest.approx(target, abs=1e-6)


def _points(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(200, 3))
    y = x @ np.array([2.0, -1.0, 0.5]) + 0.3 + rng.normal(scale=0.5, size=200) > 0
    return x, y.astype(np.float64)


def test_binary_fit_matches_the_minimum_of_its_objective() -> None:
    x, y = _points()
    l2 = 1e-2
    weights, intercept = fit_binary(x, y, l2)
    # At the minimum of mean cross-entropy + l2/2 |w|², the gradient vanishes.
    p = 1 / (1 + np.exp(-(x @ weights + intercept)))
    assert x.T @ (p - y) / len(y) + l2 * weights == pytest.approx(np.zeros(3), abs=1e-6)
    assert float(np.mean(p - y)) == pytest.approx(0.0, abs=1e-6)
    assert ((p > 0.5) == (y > 0.5)).mean() > 0.85


def test_multinomial_fit_separates_classes_and_is_deterministic() -> None:
    rng = np.random.default_rng(1)
    centres = np.eye(4)[:3] * 3
    x = np.vstack([c + rng.normal(scale=0.3, size=(10, 4)) for c in centres])
    labels = np.repeat(np.arange(3), 10)
    first = fit_multinomial(x, labels, 3, 1e-3)
    assert np.array_equal(first, fit_multinomial(x, labels, 3, 1e-3))
    assert first.shape == (5, 3)
    assert ((with_intercept(x) @ first).argmax(axis=1) == labels).all()


def test_row_weights_pull_the_fit_towards_heavier_rows() -> None:
    x = np.array([[0.0], [0.0]])
    labels = np.array([0, 1])
    even = fit_multinomial(x, labels, 2, 1e-3)
    heavy = fit_multinomial(x, labels, 2, 1e-3, np.array([1.0, 3.0]))
    assert (with_intercept(x) @ even)[0] == pytest.approx([0.0, 0.0], abs=1e-6)
    assert np.diff((with_intercept(x) @ heavy)[0])[0] == pytest.approx(np.log(3), abs=1e-5)
