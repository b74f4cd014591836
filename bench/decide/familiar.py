"""Label familiarity for the stacked binary map (issue 12, fifth round).

The learned similarity (``binary_pair``) is surer of labels it was fitted on than of new
ones, and the ``binary`` map fitted on out-of-fold-by-label scores is calibrated only for
new ones (a caller's labels). ``familiarity`` tells the two apart from the ask alone: its
highest centred cosine to the per-label centroids of the fitted asks (one row per fitted
label, languages and phrasings pooled, float16: ``Calibration.familiar_labels``).

The map is fitted on the rows of two regimes of out-of-fold pair scores:

- **unseen** labels: ``fitting.fit_similarity``'s folds of labels; familiarity against the
  centroids of the labels of that fold's similarity fit (the held labels are absent) less
  the ask's own label (a "no" row's asked label is usually from another fold: left in,
  familiarity would tell "no" rows from "yes" rows);
- **seen** labels: folds of states (every label stays in the similarity's fit, the held
  states leave it); familiarity against every centroid.

Features: the shipped ones, ``pair``, ``familiarity`` and ``familiarity × pair``. The
default threshold is chosen by the usual rule over every (dataset, regime).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from bench.decide.balance import by_group, state_fold_scores
from bench.decide.datasets import Pairs
from bench.decide.fitting import (
    BINARY_FEATURES,
    FOLDS,
    FitReadings,
    Readings,
    binary_groups,
    binary_scalars,
    default_threshold,
    fit_similarity,
    label_folds,
)
from bench.decide.metrics import calibration_figures

from vigia.decide import scoring
from vigia.decide.calibration import CALIBRATION_FILE, Calibration, Linear
from vigia.decide.encoder import TextEncoder
from vigia.decide.reference import centred, get_reference
from vigia.decide.texts import statement
from vigia.kit.logistic import fit_binary

REGIMES = ("unseen", "seen")
SHIPPED_NAMES = (*BINARY_FEATURES[1:], "pair")
FAMILIAR_NAMES = (*SHIPPED_NAMES, "familiarity", "familiarity_pair")
_SEEN: dict[tuple[str, ...], np.ndarray] = {}


def ask_vectors(
    encoder: TextEncoder, calibration: Calibration, binary: list[Readings]
) -> dict[str, np.ndarray]:
    """The centred vector of every ask of the binary readings, as the product reads it."""
    asks = sorted({wire["ask"] for part in binary for _, wire, _ in part.task.rows})
    name = calibration.encoder
    vectors = encoder.embed([statement(ask) for ask in asks], [name])[name]
    moved = centred(vectors, get_reference(encoder, name).centre)
    return dict(zip(asks, moved, strict=True))


def ask_labels(binary: list[Readings], parts: dict[str, Pairs]) -> dict[str, tuple[str, str]]:
    """Each fitted ask's (dataset, label): the label of the states it was asked of with yes."""
    label_of = {text: label for pairs in parts.values() for text, label in pairs}
    found = {}
    for part in binary:
        for state, wire, answer in part.task.rows:
            if answer is True and state in label_of:
                found[wire["ask"]] = (part.task.dataset, label_of[state])
    return found


def label_centroids(
    asks: dict[str, np.ndarray], labels: dict[str, tuple[str, str]]
) -> tuple[np.ndarray, np.ndarray, list[tuple[str, str]]]:
    """One centred, normalised centroid per fitted label (float16, as stored), its fold and
    its (dataset, label)."""
    keys = sorted(set(labels.values()))
    rows = []
    for key in keys:
        mean = np.mean([asks[a] for a, k in labels.items() if k == key], axis=0)
        rows.append(mean / np.linalg.norm(mean))
    matrix = np.array(rows).astype(np.float16)
    folds = np.array([zlib.crc32(f"{d}/{label}".encode()) % FOLDS for d, label in keys])
    return matrix, folds, keys


def seen_scores(binary: list[Readings]) -> np.ndarray:
    """``balance.state_fold_scores``, kept per set of fit parts."""
    key = tuple(part.task.name for part in binary)
    if key not in _SEEN:
        _SEEN[key] = state_fold_scores(binary)
    return _SEEN[key]


@dataclass
class Regimes:
    """The binary fit rows in both regimes: features (``FAMILIAR_NAMES``) per regime,
    answers, (dataset, ask language) groups and the label folds of state and ask."""

    features: dict[str, np.ndarray]
    y: np.ndarray
    groups: list[tuple[str, str]]
    state_fold: np.ndarray
    ask_fold: np.ndarray
    centroids: np.ndarray


def regimes_of(
    binary: list[Readings], parts: dict[str, Pairs], asks: dict[str, np.ndarray]
) -> Regimes:
    """Both regimes' rows of the binary fit readings (``asks``: ``ask_vectors``)."""
    folds = label_folds(binary, parts)
    _, unseen = fit_similarity(binary, folds)
    seen = seen_scores(binary)
    labels = ask_labels(binary, parts)
    matrix, label_fold, keys = label_centroids(asks, labels)
    centroids = matrix.astype(np.float64)
    scalars, y = binary_scalars(binary)
    state_fold = np.array([f for f, _ in folds])
    texts = [wire["ask"] for part in binary for _, wire, _ in part.task.rows]
    cosines = np.array([asks[t] for t in texts]) @ centroids.T
    familiar_seen = cosines.max(axis=1)
    # Unseen regime: the ask's own label is left out for every row, yes or no (else a "no"
    # ask, about another fold's label, would read familiar and a "yes" one not: the answer).
    index = {key: i for i, key in enumerate(keys)}
    own = np.array([index.get(labels.get(t, ("", "")), -1) for t in texts])
    rows = np.nonzero(own >= 0)[0]
    cosines[rows, own[rows]] = -np.inf
    familiar_unseen = cosines.max(axis=1)
    for k in range(FOLDS):
        held = state_fold == k
        familiar_unseen[held] = cosines[held][:, label_fold != k].max(axis=1)
    features = {
        regime: np.hstack([scalars, np.stack([pair, familiar, familiar * pair], axis=1)])
        for regime, pair, familiar in (
            ("unseen", unseen, familiar_unseen),
            ("seen", seen, familiar_seen),
        )
    }
    return Regimes(
        features,
        y,
        binary_groups(binary),
        state_fold,
        np.array([f for _, f in folds]),
        matrix,
    )


def fit_map(regimes: Regimes, rows: np.ndarray, familiar: bool = True) -> Linear:
    """The binary map on ``rows``: with familiarity on both regimes, else (the shipped
    method) without it on the unseen regime only."""
    names: tuple[str, ...] = FAMILIAR_NAMES if familiar else SHIPPED_NAMES
    if familiar:
        x = np.vstack([regimes.features[r][rows] for r in REGIMES])
        y = np.concatenate([regimes.y[rows]] * len(REGIMES))
    else:
        x = regimes.features["unseen"][rows][:, : len(SHIPPED_NAMES)]
        y = regimes.y[rows]
    weights, intercept = fit_binary(x, y, 1e-4)
    values = {"bias": intercept, **dict(zip(names, weights, strict=True))}
    return Linear({f: round(float(v), 5) for f, v in values.items()})


def yes_probabilities(linear: Linear, features: np.ndarray) -> np.ndarray:
    """P(yes) of rows of ``FAMILIAR_NAMES`` features under a map (absent names weigh 0)."""
    w = np.array([linear.weights.get(n, 0.0) for n in FAMILIAR_NAMES])
    return 1.0 / (1.0 + np.exp(-(linear.weights["bias"] + features @ w)))


def outcomes(p_yes: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Answer probability max(p, 1 − p), confidence as the API shows it, correctness."""
    top = np.maximum(p_yes, 1 - p_yes)
    confidence = np.array([round(scoring.confidence(np.array([p, 1 - p])), 4) for p in p_yes])
    return top, confidence, ((p_yes >= 0.5) == (y > 0.5)).astype(float)


def threshold_of(regimes: Regimes, linear: Linear, which: tuple[str, ...]) -> float:
    """The default threshold (``fitting.default_threshold``) over (dataset, regime) groups."""
    datasets = np.array([d for d, _ in regimes.groups])
    found: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
    for regime in which:
        _, confidence, correct = outcomes(
            yes_probabilities(linear, regimes.features[regime]), regimes.y
        )
        for name in sorted(set(datasets.tolist())):
            rows = datasets == name
            found[f"{name}/{regime}"] = [(confidence[rows], correct[rows])]
    return default_threshold(found)


def with_familiarity(
    read: FitReadings,
    base: Calibration,
    parts: dict[str, Pairs],
    asks: dict[str, np.ndarray],
    path: Path,
) -> tuple[Calibration, Regimes]:
    """``base`` with the binary map refitted with familiarity (both regimes, every row), its
    default threshold re-chosen and the label centroids written to ``path``."""
    regimes = regimes_of(read["binary"], parts, asks)
    linear = fit_map(regimes, np.ones(len(regimes.y), dtype=bool))
    np.save(path, regimes.centroids)
    name = path.name if path.parent == CALIBRATION_FILE.parent else str(path)
    defaults = {**base.default_min_confidence, "binary": threshold_of(regimes, linear, REGIMES)}
    calibration = replace(
        base, binary=linear, familiar_labels=name, default_min_confidence=defaults
    )
    return calibration, regimes


def regime_figures(
    regimes: Regimes, p_yes: dict[str, np.ndarray], threshold: float
) -> dict[str, Any]:
    """Figures per regime, pooled and per dataset (and language), of out-of-fold P(yes)
    (rows with no fold are left out)."""
    known = regimes.state_fold >= 0
    groups = [g for g, k in zip(regimes.groups, known, strict=True) if k]
    found = {}
    for regime in REGIMES:
        top, confidence, correct = outcomes(np.round(p_yes[regime][known], 4), regimes.y[known])
        found[regime] = {
            "all": calibration_figures(top, correct, confidence >= threshold),
            **by_group(groups, top, confidence, correct, threshold),
        }
    return found
