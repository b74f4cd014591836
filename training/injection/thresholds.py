"""The thresholds rule of the injection classifier and its figures (numpy only, no torch).

Per sensitivity, the lowest threshold whose benign false-positive rate, averaged over the
benign sources of the validation slice (each source weighs the same, so the many easy
customer turns do not set it), is at most ``FPR_TARGETS``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

MODEL_ID = "vigia-injection-2.0.0"
SHIPPED = Path(__file__).resolve().parents[2] / "src" / "vigia" / "guardrails" / "data" / MODEL_ID
FPR_TARGETS = {"low": 0.01, "medium": 0.03, "high": 0.06}


def auc(labels: np.ndarray, scores: np.ndarray) -> float:
    """Area under the ROC curve (rank statistic, ties counted half)."""
    pos, neg = scores[labels == 1], scores[labels == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))


def thresholds_for(labels: np.ndarray, scores: np.ndarray, sources: np.ndarray) -> dict[str, float]:
    """Per sensitivity, the lowest threshold whose benign FPR, averaged over the sources
    (each source weighs the same, so the many easy customer turns do not set it), is at
    most its target."""
    benign = labels == 0
    names = sorted(set(sources[benign].tolist()))
    candidates = np.unique(scores[benign])[::-1]  # high to low: FPR grows as we go

    def macro_fpr(cut: float) -> float:
        return float(np.mean([(scores[benign & (sources == n)] >= cut).mean() for n in names]))

    out = {}
    for name, target in FPR_TARGETS.items():
        chosen = 1.0
        for value in candidates:
            cut = float(np.nextafter(value, 0.0))  # just below: ``value`` itself fires
            if macro_fpr(cut) > target:
                break
            chosen = cut
        out[name] = chosen
    return out


def figures(labels: np.ndarray, scores: np.ndarray, cuts: dict[str, float]) -> dict[str, object]:
    """AUC and, per sensitivity, TPR and FPR on the validation slice."""
    at = {
        name: {
            "tpr": round(float((scores[labels == 1] >= t).mean()), 4),
            "fpr": round(float((scores[labels == 0] >= t).mean()), 4),
        }
        for name, t in cuts.items()
    }
    return {"auc": round(auc(labels, scores), 5), "at": at}
