"""Fits the injection detector's head and writes ``src/vigia/guardrails/data/injection_head.json``.

    OMP_NUM_THREADS=1 .venv/bin/python bench/fit_injection.py [--dry-run]

Fits the recipe ``bench.injection.fitting.SHIPPED`` on ``injection/train.jsonl`` and the
team's ``bench/data/guardrails/injection_team_train.txt``, and reads ``injection/dev.jsonl``
for the thresholds only: the lowest score threshold whose false-positive rate on dev's
benign prompts is ≤ 1 % / 3 % / 8 % for the sensitivities low / medium / high. Data from
``VIGIA_BENCH_DATA`` (default ``../shared/data``). USE vectors are stored in ``bench/.out/``
on first run (a few minutes on a busy 2-core machine). The same inputs give the same file:
L-BFGS from zeros, fixed iterations. Figures: ``bench/guardrails_eval.py --parts injection``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.injection.data import (  # noqa: E402
    DATA,
    TEAM_TRAIN,
    StoredVectors,
    read_split,
    read_team_train,
)
from bench.injection.fitting import (  # noqa: E402
    FPR_BY_SENSITIVITY,
    SHIPPED,
    TrainingSet,
    fit_recipe,
    head_json,
    rows_of,
    score_all,
    threshold_for,
)

from vigia.guardrails.injection import HEAD_FILE  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = parser.parse_args()
    train, team, dev = read_split("train"), read_team_train(), read_split("dev")
    embed = StoredVectors()
    data = TrainingSet.build(train, embed).plus(TrainingSet.build(team, embed))
    head = fit_recipe(SHIPPED, data)
    dev_scores = score_all(head, rows_of(dev, embed))
    labels = np.array([p.label for p in dev])
    benign, attacks = dev_scores[labels == 0], dev_scores[labels == 1]
    thresholds = {
        name: round(threshold_for(benign, fpr), 6) for name, fpr in FPR_BY_SENSITIVITY.items()
    }
    operating = {
        name: {
            "dev_fpr": round(float((benign >= t).mean()), 4),
            "dev_tpr": round(float((attacks >= t).mean()), 4),
        }
        for name, t in thresholds.items()
    }
    digest = hashlib.sha256((DATA / "train.jsonl").read_bytes()).hexdigest()[:16]
    team_digest = hashlib.sha256(TEAM_TRAIN.read_bytes()).hexdigest()[:16]
    notes: dict[str, object] = {
        "train": f"injection/train.jsonl, {len(train)} prompts, sha256 {digest}…",
        "team": f"{TEAM_TRAIN.name}, {len(team)} prompts, sha256 {team_digest}…",
        "recipe": dataclasses.asdict(SHIPPED),
        "thresholds_on": f"injection/dev.jsonl, {len(dev)} prompts",
        "operating_points": operating,
    }
    print(json.dumps({"thresholds": thresholds, **notes}, indent=2))
    if not args.dry_run:
        content = head_json(head.weights, head.bias, thresholds, notes)
        HEAD_FILE.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {HEAD_FILE.relative_to(ROOT)} ({HEAD_FILE.stat().st_size // 1024} kB)")


if __name__ == "__main__":
    main()
