"""Label familiarity as a step (issue 12, sixth round).

Below a familiarity threshold τ the shipped binary map applies unchanged (labels the
similarity has not seen: a caller's); at or above τ a second map with the shipped features,
``binary_seen``, fitted on the seen-regime rows only (``bench/decide/familiar.py``'s
``Regimes``: out-of-fold pair scores by folds of states, every label in the fit).

τ is the smallest cosine, rounded up to 0.001, that at most 5 % of the unseen-regime rows
reach (familiarity without the ask's own label): unseen labels keep the shipped map. The
default threshold is chosen by the usual rule over every (dataset, regime), each row
through the map it gets.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from bench.decide.familiar import (
    REGIMES,
    SHIPPED_NAMES,
    Regimes,
    fit_map,
    outcomes,
    yes_probabilities,
)
from bench.decide.fitting import default_threshold

from vigia.decide.calibration import Linear
from vigia.kit.logistic import fit_binary

SHARE = 0.05  # of the unseen-regime rows allowed at or above τ
FAMILIARITY = len(SHIPPED_NAMES)  # the familiarity column of ``Regimes.features``


def familiarity_of(regimes: Regimes, regime: str) -> np.ndarray:
    """Each row's familiarity in a regime."""
    return regimes.features[regime][:, FAMILIARITY]


def step_threshold(unseen: np.ndarray) -> float:
    """τ: the smallest multiple of 0.001 that at most ``SHARE`` of ``unseen`` reach."""
    millis = int(np.floor(np.quantile(unseen, 1 - SHARE) * 1000)) - 2
    while np.mean(unseen >= millis / 1000) > SHARE:
        millis += 1
    return millis / 1000


def fit_seen(regimes: Regimes, rows: np.ndarray) -> Linear:
    """``binary_seen``: the shipped features, fitted on the seen-regime ``rows`` only."""
    x = regimes.features["seen"][rows][:, :FAMILIARITY]
    weights, intercept = fit_binary(x, regimes.y[rows], 1e-4)
    values = {"bias": intercept, **dict(zip(SHIPPED_NAMES, weights, strict=True))}
    return Linear({f: round(float(v), 5) for f, v in values.items()})


@dataclass(frozen=True)
class Step:
    """The step form: ``shipped`` below ``tau``, ``seen`` at or above."""

    shipped: Linear
    seen: Linear
    tau: float

    def p_yes(self, features: np.ndarray) -> np.ndarray:
        """P(yes) of rows of ``FAMILIAR_NAMES`` features."""
        familiar = features[:, FAMILIARITY] >= self.tau
        return np.where(
            familiar,
            yes_probabilities(self.seen, features),
            yes_probabilities(self.shipped, features),
        )


def fit_step(regimes: Regimes, rows: np.ndarray) -> Step:
    """The shipped method's map, ``binary_seen`` and τ, all on ``rows``."""
    return Step(
        fit_map(regimes, rows, familiar=False),
        fit_seen(regimes, rows),
        step_threshold(familiarity_of(regimes, "unseen")[rows]),
    )


def default_of(regimes: Regimes, step: Step, which: str = "step") -> float:
    """The default threshold by the usual rule over every (dataset, regime): ``step``, each
    row through the map it gets; ``shipped``: unseen rows below τ through the shipped map;
    ``seen``: seen rows at or above τ through ``binary_seen``."""
    datasets = np.array([d for d, _ in regimes.groups])
    found: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for regime in REGIMES:
        features = regimes.features[regime]
        familiar = features[:, FAMILIARITY] >= step.tau
        if which == "step":
            keep, p_yes = np.ones(len(familiar), dtype=bool), step.p_yes(features)
        elif which == "shipped":
            keep, p_yes = ~familiar, yes_probabilities(step.shipped, features)
        else:
            keep, p_yes = familiar, yes_probabilities(step.seen, features)
        if which != "step" and regime != ("unseen" if which == "shipped" else "seen"):
            continue
        _, confidence, correct = outcomes(p_yes, regimes.y)
        for name in sorted(set(datasets.tolist())):
            rows = (datasets == name) & keep
            if rows.any():
                found[f"{name}/{regime}"] = [(confidence[rows], correct[rows])]
    return default_threshold(found)
