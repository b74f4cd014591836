"""Decisions, issue 12 fourth round: dataset-balanced fitting of the calibration maps.

Fits the choice map and the stacked binary map pooled (shipped method) and balanced
(every dataset, and within it every ask language, the same total weight), on the same
readings of the fit parts, with USE only (the examples' map is kept: it depends on no
zero-shot map, and only its fit needs e5). Default: fit-side figures only
(``bench/decide/balance.py``: 5-fold label cross-validation on the fit parts; the report
parts are not read). ``--seen-labels`` (alone): the shipped binary map on similarity scores
of labels it was fitted on but states it was not (fit side, ``...-seen-labels.json``).
``--report``: the report parts for the shipped calibration and the balanced fit;
``--heldout``: both refitted without each dataset, reported on it. Readings of the fit
parts are kept in ``bench/.out/decide-balance-readings.pickle``; the figures in
``bench/.out/decide-balance.json``.

Run: ``.venv/bin/python bench/decide_balance.py [--seen-labels] [--report] [--heldout]``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide.balance import fit_side, seen_label_probe  # noqa: E402
from bench.decide.datasets import OUT, Pairs, cached_encoder, splits  # noqa: E402
from bench.decide.fitting import FitReadings, fit_maps, read_fit  # noqa: E402
from bench.decide.report import evaluate_task, table  # noqa: E402
from bench.decide.tasks import Task, all_tasks, texts_of  # noqa: E402
from bench.decide_eval import reported  # noqa: E402

from vigia.decide.calibration import Calibration, get_calibration  # noqa: E402
from vigia.decide.encoder import TextEncoder  # noqa: E402

READINGS = OUT / "decide-balance-readings.pickle"
COMPARED = ("choice", "binary", "binary_pair", "scale_slope", "scale_spacing")


def without(read: FitReadings, dataset: str) -> FitReadings:
    return {kind: [p for p in parts if p.task.dataset != dataset] for kind, parts in read.items()}


def fit_readings() -> tuple[dict[str, Pairs], list[Task], TextEncoder, Calibration, FitReadings]:
    """The data parts, the tasks, the USE encoder (cached vectors), the shipped calibration
    and its readings of the fit parts (kept in ``READINGS`` after the first run)."""
    parts = splits()
    tasks = all_tasks(parts)
    encoder = cached_encoder(["use"], texts_of(tasks))
    shipped = get_calibration()
    if READINGS.exists():
        read = pickle.loads(READINGS.read_bytes())
    else:
        read = read_fit(encoder, shipped, tasks)
        READINGS.write_bytes(pickle.dumps(read))
    return parts, tasks, encoder, shipped, read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="read the report parts")
    parser.add_argument("--heldout", action="store_true", help="leave-one-dataset-out refits")
    parser.add_argument("--seen-labels", action="store_true", help="fit-side seen-label probe")
    args = parser.parse_args()
    parts, tasks, encoder, shipped, read = fit_readings()
    if args.seen_labels:
        seen = {"binary, seen labels": seen_label_probe(read["binary"], shipped)}
        print("## Seen labels, unseen states (fit side)\n\n" + table(seen))
        (OUT / "decide-balance-seen-labels.json").write_text(json.dumps(seen, indent=1))
        return
    pooled, unseen = fit_maps(read, shipped, parts)
    balanced, _ = fit_maps(read, shipped, parts, balanced=True)
    balanced = replace(balanced, model="balanced")
    shipped_json, pooled_json = shipped.to_json(), pooled.to_json()
    report: dict[str, Any] = {
        "pooled_reproduces_shipped": {k: pooled_json[k] == shipped_json[k] for k in COMPARED}
        | {"defaults": pooled.default_min_confidence == shipped.default_min_confidence},
        "maps": {
            name: {
                "choice": c.choice.weights,
                "binary": c.binary.weights,
                "defaults": c.default_min_confidence,
            }
            for name, c in (("pooled", pooled), ("balanced", balanced))
        },
    }
    print(json.dumps(report, indent=1))
    report["fit_side"] = fit_side(read, unseen, parts, {"pooled": pooled, "balanced": balanced})
    for name, kinds in report["fit_side"].items():
        for kind, rows in kinds.items():
            print(f"\n## fit side (5-fold by label), {name}, {kind}\n\n" + table({kind: rows}))
    if args.report:
        dev = {}
        for task in reported(tasks):
            for name, calibration in (("shipped", shipped), ("balanced", balanced)):
                dev[f"{task.name} [{name}]"] = evaluate_task(encoder, calibration, task)
        report["dev"] = dev
        print("\n## Report parts\n\n" + table(dev))
    if args.heldout:
        held = {}
        for dataset in ("clinc150", "banking77", "sib200"):
            for name, flag in (("pooled", False), ("balanced", True)):
                refit, _ = fit_maps(without(read, dataset), shipped, parts, balanced=flag)
                for task in reported(tasks):
                    if task.dataset == dataset and task.kind in ("choice", "binary"):
                        key = f"{task.name} (fit without {dataset}) [{name}]"
                        held[key] = evaluate_task(encoder, refit, task)
        report["heldout"] = held
        print("\n## Held out\n\n" + table(held))
    (OUT / "decide-balance.json").write_text(json.dumps(report, indent=1, default=float))


if __name__ == "__main__":
    main()
