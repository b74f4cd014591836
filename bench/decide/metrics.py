"""Accuracy, calibration and abstention figures of the decisions benchmark."""

from __future__ import annotations

import itertools

import numpy as np

from vigia.decide import scoring


def ece(confidences: np.ndarray, correct: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error of top-label probabilities, equal-width bins."""
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for low, high in itertools.pairwise(edges):
        inside = (confidences > low) & (confidences <= high)
        if inside.any():
            total += inside.mean() * abs(correct[inside].mean() - confidences[inside].mean())
    return float(total)


def calibration_figures(
    top: np.ndarray, correct: np.ndarray, answered: np.ndarray
) -> dict[str, float]:
    """Rows, accuracy, ECE (and its noise floor), mean confidence, coverage and selective
    accuracy of decided rows: ``top`` their confidence, ``answered`` the ones not abstained."""
    return {
        "n": float(len(top)),
        "accuracy": float(correct.mean()),
        "ece": ece(top, correct),
        "ece_floor": ece_floor(top),
        "mean_p": float(top.mean()),
        "answered": float(answered.mean()),
        "selective_accuracy": float(correct[answered].mean()) if answered.any() else float("nan"),
    }


def ece_floor(confidences: np.ndarray, draws: int = 200, seed: int = 0) -> float:
    """Mean ECE of a perfectly calibrated model with these confidences on this many rows:
    each row right with the probability it states. Below it, an ECE is noise."""
    rng = np.random.default_rng(seed)
    return float(
        np.mean(
            [
                ece(confidences, (rng.random(len(confidences)) < confidences).astype(float))
                for _ in range(draws)
            ]
        )
    )


def risk_curve(scores: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-scores, kind="stable")
    wrong = np.cumsum(1 - correct[order])
    answered = np.arange(1, len(order) + 1)
    return answered / len(order), wrong / answered


def aurc(scores: np.ndarray, correct: np.ndarray) -> float:
    """Area under the risk-coverage curve (lower is better)."""
    return float(risk_curve(scores, correct)[1].mean())


def coverage_at(scores: np.ndarray, correct: np.ndarray, risk: float = 0.05) -> float:
    """Largest share of queries answerable (most confident first) with risk ≤ ``risk``."""
    coverage, risks = risk_curve(scores, correct)
    ok = np.nonzero(risks <= risk)[0]
    return float(coverage[ok[-1]]) if len(ok) else 0.0


def threshold_for(confidences: np.ndarray, correct: np.ndarray, risk: float) -> float:
    """Lowest confidence threshold whose answered part has risk ≤ ``risk``."""
    order = np.argsort(-confidences, kind="stable")
    risks = np.cumsum(1 - correct[order]) / np.arange(1, len(order) + 1)
    ok = np.nonzero(risks <= risk)[0]
    if not len(ok):
        return 1.0
    return float(confidences[order][ok[-1]])


def wilson_lower(right: np.ndarray, total: np.ndarray, z: float = 1.645) -> np.ndarray:
    """One-sided 95 % lower confidence bound of a proportion (Wilson score)."""
    p = right / total
    centre = p + z * z / (2 * total)
    spread = z * np.sqrt(p * (1 - p) / total + z * z / (4 * total * total))
    return (centre - spread) / (1 + z * z / total)


def safe_threshold(confidences: np.ndarray, correct: np.ndarray, accuracy: float) -> float:
    """Lowest confidence threshold at which the answered rows are right ``accuracy`` of the
    time with 95 % confidence (Wilson lower bound); 1.0 when no threshold is."""
    order = np.argsort(-confidences, kind="stable")
    answered = np.arange(1, len(order) + 1)
    bound = wilson_lower(np.cumsum(correct[order]), answered)
    sorted_conf = confidences[order]
    # Only cut between distinct confidences: rows tied with an answered one are answered.
    cut = np.append(sorted_conf[1:] < sorted_conf[:-1], True)
    ok = np.nonzero((bound >= accuracy) & cut)[0]
    return float(sorted_conf[ok[-1]]) if len(ok) else 1.0


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def entropy_confidence(probabilities: np.ndarray) -> np.ndarray:
    return np.array([scoring.confidence(row) for row in probabilities])
