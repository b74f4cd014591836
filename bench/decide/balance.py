"""Dataset-balanced fitting of the calibration maps (issue 12, fourth round): fit-side figures.

The choice map and the stacked binary map are fitted twice on the same fit readings:
pooled (every row weighs the same: the shipped method) and balanced (every dataset, and
within it every language of the asks, the same total weight: ``fitting.group_weights``).
Judged without the report parts, by 5-fold cross-validation over the fit parts' labels
(the folds of ``fitting.label_folds``: a label's rows are scored by a map fitted without
that label, as the state's label or as the asked one):

- binary: the stacked map refitted per fold on the out-of-fold ``pair`` scores;
- choice: the inverse-temperature map refitted per fold (full and sub-questions of the
  other labels), scored on the held labels' full questions.

Per dataset and per (dataset, language): accuracy, ECE of the answer's probability (binary
max(p, 1 − p), choice top p) with its noise floor, mean p, and coverage / selective
accuracy at the default threshold the full fit of that variant chose.

``seen_label_probe``: why the report parts can read differently from the fit side (their
labels are in the similarity's fit, the binary map is calibrated for labels that are not).
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np
from bench.decide.fitting import (
    BINARY_FEATURES,
    CHOICE_FEATURES,
    FOLDS,
    PAIR_L2,
    SUB_SIZES,
    FitReadings,
    Readings,
    binary_groups,
    binary_scalars,
    choice_rows_grouped,
    fit_inverse_temperature,
    fit_stacked,
    group_weights,
    label_folds,
)
from bench.decide.metrics import calibration_figures

from vigia.decide import scoring
from vigia.decide.calibration import Calibration, Linear
from vigia.kit.logistic import fit_binary


def _figures(
    top: np.ndarray, confidence: np.ndarray, correct: np.ndarray, threshold: float
) -> dict[str, float]:
    return calibration_figures(top, correct, confidence >= threshold)


def by_group(
    groups: list[tuple[str, str]],
    top: np.ndarray,
    confidence: np.ndarray,
    correct: np.ndarray,
    threshold: float,
) -> dict[str, dict[str, float]]:
    """Figures per dataset (``clinc150``) and per dataset and language (``sib200/es``)."""
    found = {}
    datasets = np.array([d for d, _ in groups])
    keys = np.array([f"{d}/{lang}" for d, lang in groups])
    for name in sorted(set(datasets.tolist())):
        rows = datasets == name
        found[name] = _figures(top[rows], confidence[rows], correct[rows], threshold)
        for key in sorted({k for k in keys.tolist() if k.startswith(f"{name}/")}):
            rows = keys == key
            found[key] = _figures(top[rows], confidence[rows], correct[rows], threshold)
    return found


def binary_cv(
    binary: list[Readings], parts: dict[str, Any], balanced: bool, threshold: float
) -> dict[str, dict[str, float]]:
    """Out-of-fold figures of the stacked binary map (``binary``: readings whose ``pair``
    feature is already the out-of-fold similarity score)."""
    scalars, y = binary_scalars(binary)
    unseen = np.array([r.features["pair"] for part in binary for r in part.readings])
    folds = label_folds(binary, parts)
    state_fold = np.array([f for f, _ in folds])
    ask_fold = np.array([f for _, f in folds])
    groups = binary_groups(binary)
    p_yes = np.full(len(y), np.nan)
    for k in range(FOLDS):
        train = (state_fold != k) & (ask_fold != k)
        held = state_fold == k
        weights = None
        if balanced:
            weights = group_weights([g for g, t in zip(groups, train, strict=True) if t])
        linear = fit_stacked(scalars[train], unseen[train], y[train], weights)
        features = np.hstack([scalars[held], unseen[held][:, None]])
        names = (*BINARY_FEATURES[1:], "pair")
        logits = linear.weights["bias"] + features @ np.array([linear.weights[n] for n in names])
        p_yes[held] = 1.0 / (1.0 + np.exp(-logits))
    p_shown = np.round(p_yes, 4)
    top = np.maximum(p_shown, 1 - p_shown)
    correct = ((p_shown >= 0.5) == (y > 0.5)).astype(float)
    confidence = np.array([round(scoring.confidence(np.array([p, 1 - p])), 4) for p in p_shown])
    return by_group(groups, top, confidence, correct, threshold)


def choice_cv(
    choice: list[Readings], balanced: bool, threshold: float
) -> dict[str, dict[str, float]]:
    """Out-of-fold figures of the choice map (folds of labels: dataset and answer hashed)."""
    grouped = choice_rows_grouped(choice)
    folds, full = [], []
    for part in choice:
        for reading, (_, _, answer) in zip(part.readings, part.task.rows, strict=True):
            fold = zlib.crc32(f"{part.task.dataset}/{answer}".encode()) % FOLDS
            folds.append(fold)
            full.append(True)
            if any(k < len(reading.closeness) for k in SUB_SIZES):
                folds.append(fold)
                full.append(False)
    fold_of, is_full = np.array(folds), np.array(full)
    assert len(fold_of) == len(grouped)
    top = np.zeros(len(grouped))
    confidence = np.zeros(len(grouped))
    correct = np.zeros(len(grouped))
    for k in range(FOLDS):
        train = [row for (row, _), f in zip(grouped, fold_of, strict=True) if f != k]
        groups = [g for (_, g), f in zip(grouped, fold_of, strict=True) if f != k]
        weights = group_weights(groups) if balanced else None
        linear = fit_inverse_temperature(train, CHOICE_FEATURES, weights)
        for index in np.nonzero((fold_of == k) & is_full)[0]:
            (h, values, label), _ = grouped[index]
            p = _choice_probabilities(h, values, linear)
            top[index] = float(p.max())
            confidence[index] = round(scoring.confidence(p), 4)
            correct[index] = float(int(np.argmax(p)) == label)
    keep = np.nonzero(is_full)[0]
    groups = [grouped[i][1] for i in keep]
    return by_group(groups, top[keep], confidence[keep], correct[keep], threshold)


def _choice_probabilities(h: np.ndarray, values: dict[str, float], linear: Linear) -> np.ndarray:
    return scoring.softmax(h * np.exp(linear(values)))


def fit_side(
    read: FitReadings, unseen: FitReadings, parts: dict[str, Any], fitted: dict[str, Calibration]
) -> dict[str, Any]:
    """Cross-validated fit-side figures of each fitted variant (``pooled``, ``balanced``)."""
    report: dict[str, Any] = {}
    for name, calibration in fitted.items():
        balanced = name == "balanced"
        defaults = calibration.default_min_confidence
        report[name] = {
            "choice": choice_cv(read["choice"], balanced, defaults["choice"]),
            "binary": binary_cv(unseen["binary"], parts, balanced, defaults["binary"]),
        }
    return report


def state_fold_scores(binary: list[Readings], l2: float = PAIR_L2) -> np.ndarray:
    """Out-of-fold pair scores by folds of states (hashed text): every label stays in the
    similarity's fit, the held states' rows leave it (the report parts' regime); ``l2``:
    the similarity's penalty."""
    scalars, y = binary_scalars(binary)
    pairs = np.array([r.pair for part in binary for r in part.readings])
    states = [state for part in binary for state, _, _ in part.task.rows]
    fold = np.array([zlib.crc32(s.encode()) % FOLDS for s in states])
    count = len(BINARY_FEATURES) - 1
    scores = np.zeros(len(y))
    for k in range(FOLDS):
        weights, _ = fit_binary(np.hstack([scalars, pairs])[fold != k], y[fold != k], l2)
        scores[fold == k] = pairs[fold == k] @ weights[count:]
    return scores


def seen_label_probe(binary: list[Readings], calibration: Calibration) -> dict[str, Any]:
    """The shipped binary map on pair scores of *seen labels, unseen states* (the report
    parts' regime: their labels are all in the similarity's fit), from the fit parts alone.

    The similarity is refitted per fold of states (hashed text: every label stays in the
    fit, the held states' rows leave it) and scores the held rows; the ``binary`` map
    (fitted on out-of-fold-by-label scores) turns them into probabilities.
    """
    scalars, y = binary_scalars(binary)
    scores = state_fold_scores(binary)
    names = (*BINARY_FEATURES[1:], "pair")
    w = np.array([calibration.binary.weights[n] for n in names])
    logits = calibration.binary.weights["bias"] + np.hstack([scalars, scores[:, None]]) @ w
    p_shown = np.round(1.0 / (1.0 + np.exp(-logits)), 4)
    top = np.maximum(p_shown, 1 - p_shown)
    correct = ((p_shown >= 0.5) == (y > 0.5)).astype(float)
    confidence = np.array([round(scoring.confidence(np.array([p, 1 - p])), 4) for p in p_shown])
    threshold = calibration.default_min_confidence["binary"]
    return by_group(binary_groups(binary), top, confidence, correct, threshold)
