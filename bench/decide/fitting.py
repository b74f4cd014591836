"""Fits the decision model's constants on the development data (``--fit``).

Vectorised over the calibration set; the examples classifier and the binary asks' logistic
curve are fitted with the product's own trainers (``vigia.decide.fewshot``,
``vigia.logistic``).
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from dataclasses import replace

import numpy as np
from bench.decide.datasets import CLINC_DESCRIPTIONS, Pairs
from bench.decide.metrics import ece, entropy_confidence, log_softmax, threshold_for

from vigia.decide import fewshot, scoring
from vigia.decide.calibration import Calibration, get_calibration
from vigia.decide.encoder import TextEncoder
from vigia.decide.texts import humanise, option_text
from vigia.logistic import fit_binary

DEFAULT_RISK = 0.05


def scores_for(
    weights: dict[str, float], states: dict[str, np.ndarray], options: dict[str, np.ndarray]
) -> np.ndarray:
    """Zero-shot scores: weighted cosine of every state to every option text."""
    total = np.zeros((len(next(iter(states.values()))), len(next(iter(options.values())))))
    for name, weight in weights.items():
        total += weight * (states[name].astype(np.float64) @ options[name].T.astype(np.float64))
    return total


def fewshot_logits(
    encoder: TextEncoder,
    weights: dict[str, float],
    l2: float,
    text_weight: float,
    option_texts: list[str],
    shots: Pairs,
    intents: list[str],
    queries: list[list[str]],
) -> list[np.ndarray]:
    """Logits of the product's examples classifier (fitted once) for each list of queries."""
    names = list(weights)
    rows = encoder.embed([*option_texts, *(t for t, _ in shots)], names)
    labels = np.array([*range(len(option_texts)), *(intents.index(i) for _, i in shots)])
    row_weights = np.array([text_weight] * len(option_texts) + [1.0] * len(shots))
    classifier = fewshot.fit(rows, labels, row_weights, len(option_texts), weights, l2)
    return [classifier.logits(encoder.embed(texts, names)) for texts in queries]


def fit_temperature(scores: np.ndarray, labels: np.ndarray) -> float:
    """Temperature minimising the negative log-likelihood (golden-section on log T)."""

    def nll(log_t: float) -> float:
        return float(-log_softmax(scores / math.exp(log_t))[np.arange(len(labels)), labels].mean())

    low, high = math.log(1e-3), math.log(1.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if nll(a) < nll(b):
            high = b
        else:
            low = a
    return round(math.exp((low + high) / 2), 5)


def fit_ece_temperature(scores: np.ndarray, labels: np.ndarray, around: float) -> float:
    """Temperature minimising the 15-bin ECE of top-label probabilities (grid near ``around``)."""

    def error(temperature: float) -> float:
        probabilities = np.exp(log_softmax(scores / temperature))
        correct = (probabilities.argmax(1) == labels).astype(float)
        return ece(probabilities.max(1), correct)

    grid = [around * math.exp(step / 200) for step in range(-60, 61)]
    best: float = min(grid, key=error)
    return round(best, 5)


def sub_question_confidences(
    scores: np.ndarray, labels: np.ndarray, temperature: float, sizes: list[int], seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Confidence and correctness on random sub-questions of k options (label −1: none fits)."""
    rng = np.random.default_rng(seed)
    confidences, correct = [], []
    for row, label in zip(scores, labels, strict=True):
        k = int(rng.choice(sizes))
        others = [i for i in range(scores.shape[1]) if i != label]
        chosen = list(rng.choice(others, size=k - (label >= 0), replace=False))
        if label >= 0:
            chosen.append(int(label))
        logits = row[chosen] / temperature
        probabilities = np.exp(logits - logits.max())
        probabilities /= probabilities.sum()
        confidences.append(scoring.confidence(probabilities))
        correct.append(label >= 0 and chosen[int(np.argmax(probabilities))] == label)
    return np.array(confidences), np.array(correct, dtype=float)


def fit(
    encoder: TextEncoder, names: list[str], example_names: list[str], parts: dict[str, Pairs]
) -> Calibration:
    """Fits every constant on CLINC150 ``train`` (shots, calibration queries, oos_train).

    Zero-shot: encoder weights by accuracy, then the temperature minimising ECE on every
    labelled train query we hold (shots and calibration: zero-shot does not use the shots).
    Examples: encoder weights and L2 penalty by accuracy of the classifier fitted on the
    shots and scored on the calibration queries, then its temperature by NLL on them.
    """
    intents = sorted({i for _, i in parts["clinc_shots"]})
    option_texts = [option_text(i, CLINC_DESCRIPTIONS[i]) for i in intents]
    options = encoder.embed(option_texts, names)
    calib_texts = [t for t, _ in parts["clinc_calib"]]
    oos_texts = [t for t, _ in parts["clinc_oos_calib"]]
    labelled = parts["clinc_shots"] + parts["clinc_calib"]
    states = encoder.embed([t for t, _ in labelled], names)
    all_labels = np.array([intents.index(i) for _, i in labelled])
    labels = np.array([intents.index(i) for _, i in parts["clinc_calib"]])
    calib = encoder.embed(calib_texts, names)
    oos = encoder.embed(oos_texts, names)

    grid = [{names[0]: 1.0}]
    if len(names) == 2:
        grid = [{names[0]: a, names[1]: round(1 - a, 2)} for a in (0.1, 0.2, 0.3, 0.4, 0.5)]
    weights = max(
        grid, key=lambda w: float((scores_for(w, states, options).argmax(1) == all_labels).mean())
    )
    zero_all = scores_for(weights, states, options)
    temperature = fit_ece_temperature(zero_all, all_labels, fit_temperature(zero_all, all_labels))
    zero = scores_for(weights, calib, options)

    base = get_calibration()
    shots = parts["clinc_shots"]
    example_grid = [{example_names[0]: 1.0}]
    if len(example_names) == 2:
        example_grid = [
            {example_names[0]: a, example_names[1]: round(1 - a, 2)} for a in (0.3, 0.5)
        ]
    trials = {}
    for example_weights, l2 in itertools.product(example_grid, (1e-5, 1e-4)):
        logits = fewshot_logits(
            encoder,
            example_weights,
            l2,
            base.text_weight,
            option_texts,
            shots,
            intents,
            [calib_texts],
        )[0]
        accuracy = float((logits.argmax(1) == labels).mean())
        print(
            f"examples {example_weights} l2 {l2}: calibration accuracy {accuracy:.4f}",
            file=sys.stderr,
        )
        trials[(json.dumps(example_weights), l2)] = accuracy
    chosen_weights, l2 = max(trials, key=lambda k: trials[k])
    example_weights = json.loads(chosen_weights)
    few, oos_few = fewshot_logits(
        encoder,
        example_weights,
        l2,
        base.text_weight,
        option_texts,
        shots,
        intents,
        [calib_texts, oos_texts],
    )
    temperature_examples = fit_temperature(few, labels)

    # Binary asks are short questions: fitted on the intents' bare names as asks.
    asks = encoder.embed([humanise(i) for i in intents], names)
    ask_zero = scores_for(weights, calib, asks)
    ask_oos = scores_for(weights, oos, asks)
    rng = np.random.default_rng(11)
    negatives = np.array([rng.choice([j for j in range(len(intents)) if j != i]) for i in labels])
    oos_asks = rng.integers(0, len(intents), len(ask_oos))
    x = np.concatenate(
        [
            ask_zero[np.arange(len(labels)), labels],
            ask_zero[np.arange(len(labels)), negatives],
            ask_oos[np.arange(len(ask_oos)), oos_asks],
        ]
    )
    y = np.concatenate([np.ones(len(labels)), np.zeros(len(labels) + len(ask_oos))])
    weights_yes, intercept = fit_binary(x[:, None], y, l2=0.0)
    slope = float(weights_yes[0])
    p_yes = 1 / (1 + np.exp(-(slope * x + intercept)))
    binary_conf = entropy_confidence(np.stack([p_yes, 1 - p_yes], axis=1))
    binary_default = threshold_for(binary_conf, ((p_yes >= 0.5) == y).astype(float), DEFAULT_RISK)

    oos_zero = scores_for(weights, oos, options)
    with_oos = np.concatenate([labels, -np.ones(len(oos_zero), dtype=int)])
    defaults = {"binary": round(binary_default, 3)}
    for kind, sizes in (("choice", [*range(2, 21), len(intents)]), ("scale", list(range(2, 11)))):
        pooled_conf, pooled_correct = [], []
        for scores, temp in (
            (np.vstack([zero, oos_zero]), temperature),
            (np.vstack([few, oos_few]), temperature_examples),
        ):
            conf, correct = sub_question_confidences(scores, with_oos, temp, sizes, seed=5)
            pooled_conf.append(conf)
            pooled_correct.append(correct)
        defaults[kind] = round(
            threshold_for(
                np.concatenate(pooled_conf), np.concatenate(pooled_correct), DEFAULT_RISK
            ),
            3,
        )
    return replace(
        base,
        encoders=weights,
        temperature=temperature,
        temperature_examples=temperature_examples,
        binary_temperature=round(1 / slope, 5),
        binary_bias=round(-intercept / slope, 5),
        encoders_examples=example_weights,
        l2_examples=l2,
        default_min_confidence={k: defaults[k] for k in ("choice", "scale", "binary")},
    )
