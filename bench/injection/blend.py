"""The fine-tuned encoder averaged with the shipped detector (measured, not in the product).

The blend's score is the mean of the log-odds of 1.2.0's score and of the fine-tuned
encoder's (``finetune.py``'s second run, with public benign text); nothing is fitted. Its
``medium`` is the lowest score with ≤ 3 % FPR on dev's benign prompts. The rule it is
judged by is in docs/benchmarks.md ("The fine-tuned encoder averaged with 1.2.0"), written
before any blended score existed. Step 1 prints only sets that are not dev; ``--dev``
prints dev's tables (step 2, read once).

Run (after ``finetune.py``'s ``prepare`` and ``fit --benign``)::

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.blend          # step 1
    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.blend --dev    # step 2
    ... --both [--dev]    # flagged only where both detectors flag, each at its own medium
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from bench.injection.finetune import INPUT, OUT, scores_path
from numpy.typing import NDArray

SHIPPED = OUT / "blend-shipped-scores.json"
SETS = ("dev", "team", "public", "customer")


def shipped_scores(texts: dict[str, list[str]]) -> dict[str, list[float]]:
    """1.2.0's scores of every set, computed once and kept under ``bench/.out/``."""
    if SHIPPED.exists():
        return dict(json.loads(SHIPPED.read_text()))
    from vigia.guardrails import injection

    scores = {name: [float(s) for s in injection.scores(texts[name])] for name in SETS}
    SHIPPED.write_text(json.dumps(scores))
    return scores


def log_odds(p: NDArray[np.float64] | float) -> NDArray[np.float64]:
    """The log-odds of probabilities (clipped away from 0 and 1)."""
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return np.asarray(np.log(q / (1 - q)), dtype=np.float64)


def probability(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """The probability of log-odds ``x``."""
    return np.asarray(1 / (1 + np.exp(-x)), dtype=np.float64)


def blended(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """The mean of two scores' log-odds, as a probability."""
    return probability((log_odds(a) + log_odds(b)) / 2)


def both(
    a: NDArray[np.float64], a_medium: float, b: NDArray[np.float64], b_medium: float
) -> NDArray[np.float64]:
    """Flagged (≥ 0.5) only where both scores reach their own ``medium``: the lower of the
    two log-odds margins over each threshold, as a probability."""
    margins = (log_odds(a) - log_odds(a_medium), log_odds(b) - log_odds(b_medium))
    return probability(np.minimum(*margins))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", action="store_true", help="print dev's tables (step 2)")
    parser.add_argument("--both", action="store_true", help="flag where both detectors flag")
    args = parser.parse_args()

    from bench.injection.data import read_split
    from bench.injection.figures import read_team_set
    from bench.injection.fitting import threshold_for
    from bench.injection.report import print_table, roc_auc, slice_rows

    data = json.loads(INPUT.read_text())
    tuned = json.loads(scores_path(benign=True).read_text())
    shipped = shipped_scores(data["score"])
    dev, team = read_split("dev"), read_team_set()
    dev_labels = np.array([p.label for p in dev])
    if args.both:
        from vigia.guardrails import injection

        own = (
            injection.get_head().thresholds["medium"],
            threshold_for(np.array(tuned["dev"])[dev_labels == 0], 0.03),
        )
        scores = {
            name: both(np.array(shipped[name]), own[0], np.array(tuned[name]), own[1])
            for name in SETS
        }
        medium, how = 0.5, f"both flag, each at its own medium {own[0]:.4f} / {own[1]:.4f}"
    else:
        scores = {name: blended(np.array(shipped[name]), np.array(tuned[name])) for name in SETS}
        medium = threshold_for(scores["dev"][dev_labels == 0], 0.03)
        how = f"log-odds mean; medium {medium:.4f}"
    print(f"## 1.2.0 and the fine-tuned encoder (second run), {how}")

    team_labels = np.array([p.label for p in team])
    print_table("team held-out file:", slice_rows(team, scores["team"], medium))
    team_auc = roc_auc(scores["team"][team_labels == 1], scores["team"][team_labels == 0])
    print(f"team AUC {team_auc:.4f}")

    public = data["public"]
    flagged = scores["public"] >= medium
    not_pi = [i for i, row in enumerate(public) if not str(row[0]).startswith("promptinject")]
    print("\n| public set | n | flagged at medium |\n|---|---|---|")
    groups: dict[str, list[int]] = {}
    for index, row in enumerate(public):
        groups.setdefault(str(row[0]), []).append(index)
    for source, rows in sorted(groups.items()):
        print(f"| {source} | {len(rows)} | {np.mean(flagged[rows]):.3f} |")
    print(f"| public attacks but PromptInject | {len(not_pi)} | {np.mean(flagged[not_pi]):.3f} |")

    fitted = set(data["benign"])
    customer = data["score"]["customer"]
    keep = [i for i, text in enumerate(customer) if text not in fitted]
    rate = float(np.mean(scores["customer"][keep] >= medium))
    print(f"\npublic customer messages not fitted on ({len(keep)}): flagged {rate:.4f}")

    if args.dev:
        print_table(f"dev at medium {medium:.4f}:", slice_rows(dev, scores["dev"], medium))


if __name__ == "__main__":
    main()
