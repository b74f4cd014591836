"""Fits the injection detector's head and writes ``src/vigia/guardrails/data/injection_head.json``.

    OMP_NUM_THREADS=1 .venv/bin/python bench/fit_injection.py [--dry-run]

Fits the recipes ``bench.injection.fitting.SHIPPED`` (first stage: USE + patterns) and
``SECOND`` (second stage, read in ``BAND`` of the first score: USE + e5 + patterns) on
``injection/train.jsonl`` and the team's ``bench/data/guardrails/injection_team_train.txt``,
and reads ``injection/dev.jsonl`` for the thresholds only (of the two-stage score): the
lowest score threshold whose false-positive rate on dev's benign prompts is ≤ 1 % / 3 % /
8 % for the sensitivities low / medium / high. Data from
``VIGIA_BENCH_DATA`` (default ``../shared/data``). USE and e5 vectors are stored in
``bench/.out/`` (``python -m bench.injection.embed --encoder use|e5`` first: USE takes ~2 min,
e5 ~20 min on a busy 2-core machine). The same inputs give the same file:
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

from bench.injection.cascade import product_scores  # noqa: E402
from bench.injection.data import (  # noqa: E402
    DATA,
    TEAM_TRAIN,
    StoredVectors,
    read_split,
    read_team_train,
)
from bench.injection.fitting import (  # noqa: E402
    BAND,
    FPR_BY_SENSITIVITY,
    SECOND,
    SHIPPED,
    TrainingSet,
    fit_recipe,
    head_json,
    threshold_for,
)
from bench.injection.views import Views  # noqa: E402

from vigia.guardrails.injection import HEAD_FILE, InjectionHead  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="fit and print, write nothing")
    args = parser.parse_args()
    train, team, dev = read_split("train"), read_team_train(), read_split("dev")
    embed, views = StoredVectors(), Views()
    data = TrainingSet.build(train, embed, views=views)
    data = data.plus(TrainingSet.build(team, embed, views=views))
    first, second = fit_recipe(SHIPPED, data), fit_recipe(SECOND, data)
    draft = head_json(first, second, BAND, {}, {})
    head = InjectionHead.from_json(draft)  # the weights as written (rounded)
    dev_scores = product_scores(head, dev, embed, views)
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
        "second_stage_recipe": dataclasses.asdict(SECOND),
        "thresholds_on": f"injection/dev.jsonl, {len(dev)} prompts",
        "operating_points": operating,
    }
    print(json.dumps({"thresholds": thresholds, **notes}, indent=2))
    if not args.dry_run:
        content = head_json(first, second, BAND, thresholds, notes)
        HEAD_FILE.write_text(json.dumps(content, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {HEAD_FILE.relative_to(ROOT)} ({HEAD_FILE.stat().st_size / 1024:.1f} kB)")


if __name__ == "__main__":
    main()
