"""Logistic regression, multinomial or binary, fitted by L-BFGS: the package's one trainer.

Minimises the weighted mean cross-entropy plus ``l2 / 2`` times the squared weights (never
the intercepts), in float64, from zeros, with a fixed iteration cap: the same inputs give
the same model. Used by the decision model's examples classifier and by the injection
detector; small data only (everything is held in memory, full batch).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
MAX_ITERATIONS = 300
GRADIENT_TOLERANCE = 1e-7


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


def with_intercept(matrix: Array) -> Array:
    """The rows with a constant 1 appended (the intercepts' feature)."""
    return np.hstack([matrix, np.ones((len(matrix), 1))])


def fit_multinomial(
    x: NDArray[np.floating],
    labels: NDArray[np.int64],
    classes: int,
    l2: float,
    row_weights: Array | None = None,
) -> Array:
    """Coefficients ``(features + 1, classes)``, the last row the intercepts.

    The logits of rows ``x`` are ``with_intercept(x) @ coefficients``.
    """
    rows = with_intercept(x.astype(np.float64))
    count, width = rows.shape
    targets = np.zeros((count, classes))
    targets[np.arange(count), labels] = 1.0
    weights = np.ones(count) if row_weights is None else row_weights
    share = weights / weights.sum()
    penalised = np.ones((width, 1))
    penalised[-1] = 0.0

    def objective(flat: Array) -> tuple[float, Array]:
        coefficients = flat.reshape(width, classes)
        logits = rows @ coefficients
        logits -= logits.max(axis=1, keepdims=True)
        log_norm = np.log(np.exp(logits).sum(axis=1))
        probabilities = np.exp(logits - log_norm[:, None])
        loss = float(-(share * (logits[np.arange(count), labels] - log_norm)).sum())
        loss += 0.5 * l2 * float(((coefficients * penalised) ** 2).sum())
        gradient = rows.T @ ((probabilities - targets) * share[:, None])
        gradient += l2 * coefficients * penalised
        return loss, gradient.ravel()

    solution = lbfgs(objective, np.zeros(width * classes))
    return solution.reshape(width, classes)


def fit_binary(
    x: NDArray[np.floating], y: NDArray[np.floating], l2: float, row_weights: Array | None = None
) -> tuple[Array, float]:
    """Weights and intercept of ``P(y = 1) = sigmoid(x @ weights + intercept)``.

    Fitted as two classes, whose weights come out opposite (their difference is the binary
    weights); a penalty ``l2`` on the binary weights is ``2 * l2`` on each class's.
    """
    coefficients = fit_multinomial(x, (y > 0.5).astype(np.int64), 2, 2 * l2, row_weights)
    difference = coefficients[:, 1] - coefficients[:, 0]
    return difference[:-1], float(difference[-1])
