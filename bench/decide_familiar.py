"""Decisions, issue 12 fifth round: label familiarity in the stacked binary map.

Fits the binary map with ``familiarity`` (``bench/decide/familiar.py``) on the binary fit
readings of both regimes (unseen labels: out-of-fold by label; seen labels: out-of-fold by
state), USE only (every other map, ``binary_pair`` included, kept from the shipped file:
the pooled refit reproduces them, ``bench/decide_balance.py``). Default: fit-side figures
only (5-fold cross-validation by label, both regimes; shipped method against familiarity);
the report parts are not read. ``--report``: the binary report parts, shipped against the
new map (and the spec example); ``--heldout``: the new map refitted without each dataset.
Readings are shared with ``bench/decide_balance.py``
(``bench/.out/decide-balance-readings.pickle``); figures go to
``bench/.out/decide-familiar.json``.

Run: ``.venv/bin/python bench/decide_familiar.py [--report] [--heldout]``.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide import familiar, fitting  # noqa: E402
from bench.decide.datasets import OUT, splits  # noqa: E402
from bench.decide.familiar import (  # noqa: E402
    REGIMES,
    Regimes,
    ask_vectors,
    fit_map,
    regime_figures,
    threshold_of,
    with_familiarity,
    yes_probabilities,
)
from bench.decide.fitting import FOLDS, FitReadings, fit_maps  # noqa: E402
from bench.decide.report import evaluate_task, table  # noqa: E402
from bench.decide_balance import fit_readings, without  # noqa: E402
from bench.decide_eval import reported  # noqa: E402

from vigia.decide import scoring, service  # noqa: E402
from vigia.decide.calibration import Calibration  # noqa: E402
from vigia.decide.encoder import TextEncoder  # noqa: E402
from vigia.decide.reference import centred, get_reference  # noqa: E402
from vigia.decide.schemas import Question  # noqa: E402
from vigia.decide.spec_example import SPEC_QUESTIONS, SPEC_STATE  # noqa: E402
from vigia.decide.texts import statement  # noqa: E402

SCORES = OUT / "decide-familiar-scores.pickle"


def cross_validated(regimes: Regimes, familiar: bool, threshold: float) -> dict[str, Any]:
    """Fit-side figures per regime: per fold of labels, the map fitted without them (as the
    state's label or as the asked one) scores that fold's states, in both regimes."""
    p_yes = {regime: np.full(len(regimes.y), np.nan) for regime in REGIMES}
    for k in range(FOLDS):
        train = (regimes.state_fold != k) & (regimes.ask_fold != k)
        held = regimes.state_fold == k
        linear = fit_map(regimes, train, familiar)
        for regime in REGIMES:
            p_yes[regime][held] = yes_probabilities(linear, regimes.features[regime][held])
    return regime_figures(regimes, p_yes, threshold)


def familiarity_means(regimes: Regimes) -> dict[str, float]:
    """Mean familiarity per dataset and regime."""
    datasets = np.array([d for d, _ in regimes.groups])
    column = len(regimes.features["seen"][0]) - 2
    return {
        f"{name}/{regime}": float(regimes.features[regime][datasets == name, column].mean())
        for regime in REGIMES
        for name in sorted(set(datasets.tolist()))
    }


def keep_scores(read: FitReadings) -> None:
    """The out-of-fold pair scores of both regimes, kept in ``bench/.out`` between runs
    (a pure function of the fit readings; 11 fits of the similarity)."""
    key = tuple(part.task.name for part in read["binary"])
    if SCORES.exists():
        stored = pickle.loads(SCORES.read_bytes())
        fitting._SIMILARITIES[key], familiar._SEEN[key] = stored
        return
    folds = fitting.label_folds(read["binary"], splits())
    stored = (fitting.fit_similarity(read["binary"], folds), familiar.seen_scores(read["binary"]))
    SCORES.write_bytes(pickle.dumps(stored))


def spec_answers(encoder: TextEncoder, calibration: Calibration) -> dict[str, Any]:
    """The spec example's answers (USE only: zero-shot) and the refund ask's familiarity."""
    found: dict[str, Any] = {}
    for key, wire in SPEC_QUESTIONS.items():
        question = Question.model_validate(wire)
        outcome = service.run_model(
            SPEC_STATE, [service.plan_question(question)], encoder, calibration
        )
        answer = service.to_answer(outcome[0], service.threshold(question, None, calibration))
        found[key] = answer.model_dump(exclude_none=True)
    ask = encoder.embed([statement(str(SPEC_QUESTIONS["reembolso"]["ask"]))], ["use"])["use"]
    vector = centred(ask, get_reference(encoder, "use").centre)[0]
    found["reembolso_familiarity"] = scoring.familiarity(vector, calibration.label_centroids())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true", help="read the binary report parts")
    parser.add_argument("--heldout", action="store_true", help="leave-one-dataset-out refits")
    args = parser.parse_args()
    parts, tasks, encoder, shipped, read = fit_readings()
    asks = ask_vectors(encoder, shipped, read["binary"])
    keep_scores(read)
    new, regimes = with_familiarity(read, shipped, parts, asks, OUT / "decide-familiar-labels.npy")
    everything = np.ones(len(regimes.y), dtype=bool)
    old = fit_map(regimes, everything, familiar=False)
    report: dict[str, Any] = {
        "shipped_method_reproduces": {
            "binary": old.weights == shipped.binary.weights,
            "default": threshold_of(regimes, old, ("unseen",))
            == shipped.default_min_confidence["binary"],
        },
        "shipped_method_default_both_regimes": threshold_of(regimes, old, REGIMES),
        "familiar": {"binary": new.binary.weights, "default": new.default_min_confidence["binary"]},
        "centroids": list(regimes.centroids.shape),
        "familiarity_means": familiarity_means(regimes),
    }
    print(json.dumps(report, indent=1))
    report["fit_side"] = {
        "shipped": cross_validated(regimes, False, shipped.default_min_confidence["binary"]),
        "familiar": cross_validated(regimes, True, new.default_min_confidence["binary"]),
    }
    for name, by_regime in report["fit_side"].items():
        for regime, rows in by_regime.items():
            print(f"\n## fit side (5-fold by label), {name}, {regime} labels\n")
            print(table({f"binary {regime}": rows}))
    (OUT / "decide-familiar.json").write_text(json.dumps(report, indent=1, default=float))
    if args.report:
        dev = {}
        for task in reported(tasks):
            if task.kind != "binary":
                continue
            for name, calibration in (("shipped", shipped), ("familiar", new)):
                dev[f"{task.name} [{name}]"] = evaluate_task(encoder, calibration, task)
        report["dev"] = dev
        print("\n## Report parts\n\n" + table(dev))
        report["spec_example"] = {
            name: spec_answers(encoder, calibration)
            for name, calibration in (("shipped", shipped), ("familiar", new))
        }
        print(json.dumps(report["spec_example"], indent=1))
    if args.heldout:
        held = {}
        for dataset in ("clinc150", "banking77", "sib200"):
            path = OUT / f"decide-familiar-labels-without-{dataset}.npy"
            kept = without(read, dataset)
            base, _ = fit_maps(kept, shipped, parts)
            refit, _ = with_familiarity(kept, base, parts, asks, path)
            for task in reported(tasks):
                if task.dataset == dataset and task.kind == "binary":
                    held[f"{task.name} (fit without {dataset})"] = evaluate_task(
                        encoder, refit, task
                    )
        report["heldout"] = held
        print("\n## Held out\n\n" + table(held))
    (OUT / "decide-familiar.json").write_text(json.dumps(report, indent=1, default=float))


if __name__ == "__main__":
    main()
