"""Figures of the grounding cross-encoder's scores (numpy only): AUC, balanced accuracy and
the threshold of highest balanced accuracy."""

from __future__ import annotations

import numpy as np

MODEL_ID = "vigia-grounding-1.0.0"


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """Area under the ROC curve (rank statistic, ties counted half)."""
    pos, neg = scores[labels == 1], scores[labels == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


def balanced_accuracy(labels: np.ndarray, predicted: np.ndarray) -> tuple[float, float, float]:
    """(balanced accuracy, TPR, TNR) of ``predicted`` (1 = entailed) against ``labels``."""
    tpr = float((predicted[labels == 1] == 1).mean())
    tnr = float((predicted[labels == 0] == 0).mean())
    return (tpr + tnr) / 2, tpr, tnr


def balanced_threshold(labels: np.ndarray, scores: np.ndarray) -> float:
    """The cut (``score >= cut`` = entailed) of highest balanced accuracy, on a 0.01 grid."""
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    best = max(grid, key=lambda t: balanced_accuracy(labels, (scores >= t).astype(int))[0])
    return float(best)


def figures(labels: np.ndarray, scores: np.ndarray, threshold: float) -> dict[str, float]:
    """AUC, and balanced accuracy, TPR, TNR at ``threshold``."""
    bal, tpr, tnr = balanced_accuracy(labels, (scores >= threshold).astype(int))
    return {
        "n": len(labels),
        "auc": round(auc(labels, scores), 4),
        "balanced_accuracy": round(bal, 4),
        "tpr": round(tpr, 4),
        "tnr": round(tnr, 4),
    }
