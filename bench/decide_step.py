"""Decisions, issue 12 sixth round: label familiarity as a step between two binary maps.

Below τ the shipped binary map, at or above τ ``binary_seen`` fitted on the seen-regime
rows only (``bench/decide/step.py``), USE only: every other map, ``binary_pair`` included,
is carried from the calibration file (the pooled refit reproduces them,
``bench/decide_balance.py``; the examples map depends on no zero-shot reading). The 1.3.0
baseline is that file less the step, its binary default re-chosen by the usual rule (it
reproduces 0.469). Default: fit-side figures only (5-fold cross-validation by label, both
regimes; shipped method against the step); ``--report``: the binary report parts and the
spec example, shipped against the step; ``--split`` (after the verdict): each binary
report part's rows split by familiarity at τ; ``--write``: the step written as the shipped
calibration (``calibration.json``, model ``vigia-decide-1.4.0``, and the label centroids
``familiar-labels.npy`` next to it). Readings and out-of-fold scores are shared with
``bench/decide_familiar.py``; figures go to ``bench/.out/decide-step.json``.

Run: ``.venv/bin/python bench/decide_step.py [--report] [--split] [--write]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide.datasets import OUT  # noqa: E402
from bench.decide.familiar import (  # noqa: E402
    REGIMES,
    Regimes,
    ask_vectors,
    fit_map,
    regime_figures,
    regimes_of,
    threshold_of,
)
from bench.decide.fitting import FOLDS  # noqa: E402
from bench.decide.report import decide_rows, evaluate_task, table  # noqa: E402
from bench.decide.report import figures as rows_figures  # noqa: E402
from bench.decide.step import Step, default_of, familiarity_of, fit_step  # noqa: E402
from bench.decide.tasks import Task  # noqa: E402
from bench.decide_balance import fit_readings  # noqa: E402
from bench.decide_eval import reported  # noqa: E402
from bench.decide_familiar import keep_scores, spec_answers  # noqa: E402

from vigia.decide import calibration as calibration_module  # noqa: E402
from vigia.decide import scoring  # noqa: E402
from vigia.decide.calibration import Calibration, Linear  # noqa: E402
from vigia.decide.encoder import TextEncoder  # noqa: E402
from vigia.decide.reference import centred, get_reference  # noqa: E402
from vigia.decide.texts import statement  # noqa: E402

MODEL = "vigia-decide-1.4.0"
LABELS = "familiar-labels.npy"


def cross_validated(regimes: Regimes, step: bool, threshold: float) -> dict[str, Any]:
    """Fit-side figures: per fold of labels, the maps (and τ) fitted without them score that
    fold's states in both regimes; ``step`` false: the shipped method (one map)."""
    p_yes = {regime: np.full(len(regimes.y), np.nan) for regime in REGIMES}
    taus = []
    for k in range(FOLDS):
        train = (regimes.state_fold != k) & (regimes.ask_fold != k)
        held = regimes.state_fold == k
        fitted = fit_step(regimes, train)
        if not step:
            fitted = Step(fitted.shipped, fitted.shipped, fitted.tau)
        taus.append(fitted.tau)
        for regime in REGIMES:
            p_yes[regime][held] = fitted.p_yes(regimes.features[regime][held])
    return {"taus": taus, **regime_figures(regimes, p_yes, threshold)}


def shares(regimes: Regimes, tau: float) -> dict[str, float]:
    """Share of rows at or above τ, per dataset and regime."""
    datasets = np.array([d for d, _ in regimes.groups])
    return {
        f"{name}/{regime}": float(np.mean(familiarity_of(regimes, regime)[datasets == name] >= tau))
        for regime in REGIMES
        for name in sorted(set(datasets.tolist()))
    }


def split_by_familiarity(
    encoder: TextEncoder, calibrations: dict[str, Calibration], tau: float, task: Task
) -> dict[str, Any]:
    """A binary report part's rows split by the ask's familiarity (at or above τ, below),
    figures per calibration (read after the verdict: why SLURP moved)."""
    centroids = calibrations["step"].label_centroids()
    reference = get_reference(encoder, "use")
    asks = sorted({wire["ask"] for _, wire, _ in task.rows})
    vectors = encoder.embed([statement(ask) for ask in asks], ["use"])["use"]
    moved = centred(vectors, reference.centre)
    of = {ask: scoring.familiarity(v, centroids) for ask, v in zip(asks, moved, strict=True)}
    familiar = np.array([of[wire["ask"]] for _, wire, _ in task.rows])
    found: dict[str, Any] = {
        "share_at_or_above_tau": float(np.mean(familiar >= tau)),
        "familiarity_quartiles": np.quantile(familiar, [0.25, 0.5, 0.75]).tolist(),
    }
    truth = [row[2] for row in task.rows]
    for name, calibration in calibrations.items():
        decided = decide_rows(encoder, calibration, task)
        for part, rows in (("at_or_above", familiar >= tau), ("below", familiar < tau)):
            index = np.nonzero(rows)[0].tolist()
            if index:
                found[f"{name}/{part}"] = rows_figures(
                    [decided[i][0] for i in index],
                    [decided[i][1] for i in index],
                    [truth[i] for i in index],
                    "binary",
                )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="read the binary report parts")
    parser.add_argument("--split", action="store_true", help="report rows by familiarity")
    parser.add_argument("--write", action="store_true", help="write the shipped calibration")
    args = parser.parse_args()
    parts, tasks, encoder, current, read = fit_readings()
    asks = ask_vectors(encoder, current, read["binary"])
    keep_scores(read)
    regimes = regimes_of(read["binary"], parts, asks)
    labels = OUT / "decide-familiar-labels.npy"
    np.save(labels, regimes.centroids)
    everything = np.ones(len(regimes.y), dtype=bool)
    step = fit_step(regimes, everything)
    old = fit_map(regimes, everything, familiar=False)
    base = replace(current, binary_seen=Linear({}), familiar_threshold=0.0, familiar_labels="")
    shipped: Calibration = replace(
        base,
        model="vigia-decide-1.3.0",
        default_min_confidence={
            **base.default_min_confidence,
            "binary": threshold_of(regimes, old, ("unseen",)),
        },
    )
    default = default_of(regimes, step)
    stepped = replace(
        base,
        model=MODEL,
        binary_seen=step.seen,
        familiar_threshold=step.tau,
        familiar_labels=str(labels),
        default_min_confidence={**base.default_min_confidence, "binary": default},
    )
    report: dict[str, Any] = {
        "shipped_method_reproduces": old.weights == shipped.binary.weights,
        "shipped_default": shipped.default_min_confidence["binary"],
        "tau": step.tau,
        "binary_seen": step.seen.weights,
        "defaults": {
            which: default_of(regimes, step, which) for which in ("step", "shipped", "seen")
        },
        "share_at_or_above_tau": shares(regimes, step.tau),
    }
    print(json.dumps(report, indent=1))
    report["fit_side"] = {
        "shipped": cross_validated(regimes, False, shipped.default_min_confidence["binary"]),
        "step": cross_validated(regimes, True, default),
    }
    for name, by_regime in report["fit_side"].items():
        print(f"\n{name}: τ per fold {by_regime['taus']}")
        for regime in REGIMES:
            print(f"\n## fit side (5-fold by label), {name}, {regime} labels\n")
            print(table({f"binary {regime}": by_regime[regime]}))
    (OUT / "decide-step.json").write_text(json.dumps(report, indent=1, default=float))
    if args.report:
        dev = {}
        for task in reported(tasks):
            if task.kind == "binary":
                for name, calibration in (("shipped", shipped), ("step", stepped)):
                    dev[f"{task.name} [{name}]"] = evaluate_task(encoder, calibration, task)
        report["dev"] = dev
        print("\n## Report parts\n\n" + table(dev))
        report["spec_example"] = {
            name: spec_answers(encoder, calibration)
            for name, calibration in (("shipped", shipped), ("step", stepped))
        }
        print(json.dumps(report["spec_example"], indent=1))
        (OUT / "decide-step.json").write_text(json.dumps(report, indent=1, default=float))
    if args.split:
        pair = {"shipped": shipped, "step": stepped}
        report["split"] = {
            task.name: split_by_familiarity(encoder, pair, step.tau, task)
            for task in reported(tasks)
            if task.kind == "binary" and "pooled" not in task.name
        }
        print(json.dumps(report["split"], indent=1, default=float))
        (OUT / "decide-step.json").write_text(json.dumps(report, indent=1, default=float))
    if args.write:
        target = calibration_module.CALIBRATION_FILE
        np.save(target.with_name(LABELS), regimes.centroids)
        written = replace(stepped, familiar_labels=LABELS)
        target.write_text(json.dumps(written.to_json(), indent=2) + "\n")
        print(f"wrote {target} and {target.with_name(LABELS)}")


if __name__ == "__main__":
    main()
