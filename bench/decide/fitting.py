"""Fits the decision model's calibration on the fit parts of the dev tasks (``--fit``).

Everything is read through the product's own code (``inference.read_zero_shot``,
``inference.classifier_for``); only the maps from readings to probabilities are fitted
here, each pooled over several datasets and languages, on features that any question has:

- choice: log inverse temperature, linear in ``CHOICE_FEATURES``, by NLL over the full
  questions and one random sub-question (2–20 options) per row, so every size is seen;
- binary: logistic regression of the answer on ``BINARY_FEATURES`` and the pair vector
  ``[u ⊙ v, |u − v|]`` of the centred state and ask (the learned similarity, whose weights
  become ``binary_pair``; ``pair`` weighs it 1 in the ``binary`` map), L2 ``PAIR_L2``;
- scale: ordered-logit slope (≥ 0: closer to a level never means less of it) and spacing;
- examples (``refit.py``): log inverse temperature of the classifier's logits, linear in
  ``EXAMPLES_FEATURES``;
- defaults: per type, the lowest ``min_confidence`` at which every fit dataset's answered
  questions are right ≥ 90 % with 95 % confidence (the strictest dataset wins).

Every row weighs the same (rows unweighted, pooled over datasets and languages).
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass, replace

import numpy as np
from bench.decide.datasets import Pairs
from bench.decide.metrics import safe_threshold
from bench.decide.tasks import Task

from vigia.decide import inference, scoring
from vigia.decide.calibration import TYPES, Calibration, Linear
from vigia.decide.encoder import TextEncoder
from vigia.decide.schemas import Question
from vigia.kit.logistic import fit_binary, lbfgs

CHOICE_FEATURES = ("bias", "log_options", "margin")
BINARY_FEATURES = ("bias", "ask_z", "state_z", "overlap", "cross_lingual", "lang_es", "lang_pt")
EXAMPLES_FEATURES = ("bias", "log_options")
PAIR_L2 = 1e-4
FOLDS = 5
SUB_SIZES = (2, 3, 4, 5, 7, 10, 15, 20)
TARGET_ACCURACY = 0.90


@dataclass
class Readings:
    """The zero-shot readings of a task's rows, with the index of the right candidate."""

    task: Task
    readings: list[scoring.Reading]
    labels: list[int]


def read_task(encoder: TextEncoder, calibration: Calibration, task: Task) -> Readings:
    """Reads every row of ``task`` with the product's zero-shot reader."""
    plans: dict[int, inference.Plan] = {}
    readings, labels = [], []
    for state, wire, answer in task.rows:
        if id(wire) not in plans:
            plans[id(wire)] = inference.plan_question(Question.model_validate(wire))
        plan = plans[id(wire)]
        readings.append(inference.read_zero_shot(state, [plan], encoder, calibration)[0])
        labels.append(int(not answer) if task.kind == "binary" else plan.keys.index(str(answer)))
    return Readings(task, readings, labels)


def _padded(rows: list[tuple[np.ndarray, dict[str, float], int]], features: tuple[str, ...]):
    """Scores padded to one matrix (mask for absent candidates), features, labels."""
    width = max(len(s) for s, _, _ in rows)
    scores = np.zeros((len(rows), width))
    mask = np.zeros((len(rows), width), dtype=bool)
    for i, (s, _, _) in enumerate(rows):
        scores[i, : len(s)], mask[i, : len(s)] = s, True
    x = np.array([[1.0 if f == "bias" else values[f] for f in features] for _, values, _ in rows])
    return scores, mask, x, np.array([label for _, _, label in rows])


def fit_inverse_temperature(
    rows: list[tuple[np.ndarray, dict[str, float], int]],
    features: tuple[str, ...],
) -> Linear:
    """``log k = w · f`` minimising the mean NLL of softmax(k · scores), rows of any width."""
    scores, mask, x, labels = _padded(rows, features)
    picked = scores[np.arange(len(rows)), labels]

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        k = np.exp(np.clip(x @ w, -20, 20))
        z = np.where(mask, scores * k[:, None], -np.inf)
        top = z.max(axis=1, keepdims=True)
        p = np.exp(z - top)
        total = p.sum(axis=1, keepdims=True)
        p /= total
        expected = (np.where(mask, p * scores, 0.0)).sum(axis=1)
        loss = float((np.log(total[:, 0]) + top[:, 0] - picked * k).mean())
        return loss, ((expected - picked) * k) @ x / len(rows)

    start = np.zeros(len(features))
    start[0] = math.log(10.0)
    solution = lbfgs(objective, start, iterations=200)
    return Linear({f: round(float(w), 5) for f, w in zip(features, solution, strict=True)})


def choice_rows(readings: list[Readings], seed: int = 5) -> list[tuple[np.ndarray, dict, int]]:
    """Full questions plus one random sub-question (2–20 options, right one kept) per row."""
    rng = random.Random(seed)
    rows = []
    for part in readings:
        for reading, label in zip(part.readings, part.labels, strict=True):
            h, languages = reading.closeness, reading.features
            rows.append((h, scoring.choice_features(h, languages), label))
            sizes = [k for k in SUB_SIZES if k < len(h)]
            if sizes:
                k = rng.choice(sizes)
                others = rng.sample([i for i in range(len(h)) if i != label], k - 1)
                chosen = [label, *others]
                rng.shuffle(chosen)
                sub = h[chosen]
                rows.append((sub, scoring.choice_features(sub, languages), chosen.index(label)))
    return rows


def label_folds(readings: list[Readings], parts: dict[str, Pairs]) -> list[tuple[int, int]]:
    """Per binary row, the fold of the state's label and of the asked label (-1: unknown).

    Labels are spread over ``FOLDS`` folds by a hash of dataset and label; an ask's label
    is the label of the states it was asked of with the answer yes.
    """
    label_of = {text: label for pairs in parts.values() for text, label in pairs}
    ask_label: dict[str, str] = {}
    for part in readings:
        for state, wire, answer in part.task.rows:
            if answer is True and state in label_of:
                ask_label[wire["ask"]] = label_of[state]

    def fold(dataset: str, label: str | None) -> int:
        return -1 if label is None else zlib.crc32(f"{dataset}/{label}".encode()) % FOLDS

    return [
        (
            fold(part.task.dataset, label_of.get(state)),
            fold(part.task.dataset, ask_label.get(wire["ask"])),
        )
        for part in readings
        for state, wire, _ in part.task.rows
    ]


def _logistic(scalars: np.ndarray, pairs: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    return fit_binary(np.hstack([scalars, pairs]), y, l2=PAIR_L2)


def fit_stacked(scalars: np.ndarray, unseen: np.ndarray, y: np.ndarray) -> Linear:
    """The ``binary`` map on the features and the out-of-fold ``pair`` score."""
    stacked, intercept = fit_binary(np.hstack([scalars, unseen[:, None]]), y, 1e-4)
    names = (*BINARY_FEATURES[1:], "pair")
    values = {"bias": intercept, **dict(zip(names, stacked, strict=True))}
    return Linear({f: round(float(v), 5) for f, v in values.items()})


def binary_scalars(readings: list[Readings]) -> tuple[np.ndarray, np.ndarray]:
    """Scalar features (``BINARY_FEATURES`` but the bias) and yes (1) / no (0) per row."""
    rows = [r for part in readings for r in part.readings]
    scalars = np.array([[r.features[f] for f in BINARY_FEATURES[1:]] for r in rows])
    return scalars, np.array([1.0 - label for part in readings for label in part.labels])


Similarity = tuple[tuple[float, ...], np.ndarray]
_SIMILARITIES: dict[tuple[str, ...], Similarity] = {}


def similarity_key(readings: list[Readings]) -> tuple[str, ...]:
    """The key of a similarity fit: its fit tasks."""
    return tuple(part.task.name for part in readings)


def fit_similarity(readings: list[Readings], folds: list[tuple[int, int]]) -> Similarity:
    """The learned similarity's weights (all rows) and its out-of-fold scores: per fold of
    labels, fitted without them (neither as the state's label nor as the asked one).

    Kept per set of fit tasks for the process (a pure function of their pair vectors)."""
    key = similarity_key(readings)
    if key in _SIMILARITIES:
        return _SIMILARITIES[key]
    scalars, y = binary_scalars(readings)
    pairs = np.array([r.pair for part in readings for r in part.readings])
    count = len(BINARY_FEATURES) - 1
    weights, _ = _logistic(scalars, pairs, y)
    state_fold = np.array([f for f, _ in folds])
    ask_fold = np.array([f for _, f in folds])
    unseen = np.zeros(len(y))
    for k in range(FOLDS):
        train = (state_fold != k) & (ask_fold != k)
        held = state_fold == k
        fold_weights, _ = _logistic(scalars[train], pairs[train], y[train])
        unseen[held] = pairs[held] @ fold_weights[count:]
    known = state_fold >= 0
    unseen[~known] = pairs[~known] @ weights[count:]
    _SIMILARITIES[key] = (tuple(float(f"{w:.5g}") for w in weights[count:]), unseen)
    return _SIMILARITIES[key]


def fit_binary_map(
    readings: list[Readings], folds: list[tuple[int, int]]
) -> tuple[Linear, tuple[float, ...], np.ndarray]:
    """The binary map, stacked so that it is calibrated for labels it never saw (label 0 =
    yes):

    1. the learned similarity: logistic regression on the binary features and the pair
       vectors of every row; its pair weights become ``binary_pair``;
    2. out-of-fold pair scores: the same fit without the labels of each fold (neither as
       the state's label nor as the asked one), scored on that fold's rows;
    3. the ``binary`` map: logistic regression on the features and the out-of-fold
       ``pair`` score, so its weight on ``pair`` says how far the similarity transfers
       (L2 ``PAIR_L2`` in steps 1–2).

    Also returns the out-of-fold pair scores (for the default threshold).
    """
    pair, unseen = fit_similarity(readings, folds)
    scalars, y = binary_scalars(readings)
    return fit_stacked(scalars, unseen, y), pair, unseen


def unseen_readings(readings: list[Readings], scores: np.ndarray) -> list[Readings]:
    """The binary readings with their out-of-fold ``pair`` score (no pair vector left to
    rescore): what the default threshold is chosen on, as for labels never fitted."""
    values = iter(scores)
    return [
        Readings(
            part.task,
            [
                replace(r, features={**r.features, "pair": float(next(values))}, pair=None)
                for r in part.readings
            ],
            part.labels,
        )
        for part in readings
    ]


def fit_scale(readings: list[Readings]) -> tuple[float, float]:
    """Ordered-logit slope (≥ 0) and spacing by NLL on a grid."""
    trends = [
        (scoring.trend(r.closeness), len(r.closeness), label)
        for part in readings
        for r, label in zip(part.readings, part.labels, strict=True)
    ]

    def nll(slope: float, spacing: float) -> float:
        total = 0.0
        for value, levels, label in trends:
            p = scoring.ordered_probabilities(slope * value, levels, spacing)
            total -= math.log(max(float(p[label]), 1e-12))
        return total / len(trends)

    slopes = [0.5 * i for i in range(41)]
    spacings = [0.25 * math.exp(i / 10) for i in range(41)]
    best = min(((s, t) for s in slopes for t in spacings), key=lambda st: nll(*st))
    return round(best[0], 4), round(best[1], 4)


def default_threshold(groups: dict[str, list[tuple[np.ndarray, np.ndarray]]]) -> float:
    """Lowest threshold at which, on every fit dataset (its languages pooled), the answered
    rows are right ≥ 90 % with 95 % confidence: the strictest dataset sets it."""
    found = 0.0
    for parts in groups.values():
        confidences = np.concatenate([c for c, _ in parts])
        correct = np.concatenate([k for _, k in parts])
        found = max(found, safe_threshold(confidences, correct, TARGET_ACCURACY))
    return round(found, 3)


def outcomes_of(part: Readings, calibration: Calibration) -> tuple[np.ndarray, np.ndarray]:
    """Confidence (as the API shows it) and correctness of each reading, calibrated."""
    confidences, correct = [], []
    for reading, label in zip(part.readings, part.labels, strict=True):
        p = scoring.calibrated(reading, calibration)
        best = int(p[0] < 0.5) if reading.kind == "binary" else int(np.argmax(p))
        if reading.kind == "scale":
            best = scoring.median_index(p)
        confidences.append(round(scoring.confidence(p), 4))
        correct.append(best == label)
    return np.array(confidences), np.array(correct, dtype=float)


FitReadings = dict[str, list[Readings]]


def read_fit(encoder: TextEncoder, base: Calibration, tasks: list[Task]) -> FitReadings:
    """The zero-shot readings of the ``fit`` tasks, per kind."""
    fitted = [t for t in tasks if t.split == "fit"]
    return {
        k: [read_task(encoder, base, t) for t in fitted if t.kind == k]
        for k in ("choice", "binary", "scale")
    }


def fit_maps(
    read: FitReadings, base: Calibration, parts: dict[str, Pairs]
) -> tuple[Calibration, FitReadings]:
    """The zero-shot maps and defaults fitted on ``read`` (examples kept from ``base``);
    also the readings the defaults were chosen on (binary: out-of-fold ``pair``)."""
    by_kind = dict(read)
    choice = fit_inverse_temperature(choice_rows(by_kind["choice"]), CHOICE_FEATURES)
    folds = label_folds(by_kind["binary"], parts)
    binary, pair, unseen = fit_binary_map(by_kind["binary"], folds)
    by_kind["binary"] = unseen_readings(by_kind["binary"], unseen)
    slope, spacing = fit_scale(by_kind["scale"])
    calibration = replace(
        base,
        choice=choice,
        binary=binary,
        binary_pair=pair,
        scale_slope=slope,
        scale_spacing=spacing,
    )
    defaults = {
        kind: default_threshold(
            {
                dataset: [
                    outcomes_of(p, calibration) for p in by_kind[kind] if p.task.dataset == dataset
                ]
                for dataset in sorted({p.task.dataset for p in by_kind[kind]})
            }
        )
        for kind in TYPES
    }
    return replace(calibration, default_min_confidence=defaults), by_kind
