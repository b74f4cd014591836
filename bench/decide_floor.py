"""Decisions, issue 12: can a dev set this small show ECE ≤ 0.05 at all?

For each SIB-200 report part (choice and binary, per language and pooled) and, for
comparison, the other report parts, the shipped calibration's answer probabilities are
read once; then outcomes are drawn as if the model were perfectly calibrated (each row
right with exactly its probability) ``DRAWS`` times. Printed: the measured ECE, the mean
ECE of a perfectly calibrated model with the same probabilities (the noise floor, as
``metrics.ece_floor``), the share of draws with ECE ≤ 0.05 — the chance that a perfectly
calibrated model passes the goal on a set of this size — and the share of draws at least as
far off as measured. Nothing is fitted.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/decide_floor.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide.datasets import OUT, cached_encoder, splits  # noqa: E402
from bench.decide.metrics import ece  # noqa: E402
from bench.decide.report import decide_rows  # noqa: E402
from bench.decide.tasks import Task, all_tasks, texts_of  # noqa: E402
from bench.decide_eval import reported  # noqa: E402

from vigia.decide.calibration import get_calibration  # noqa: E402

DRAWS = 2000
GOAL = 0.05


def answer_probabilities(task: Task, rows: list[tuple[object, np.ndarray]]) -> np.ndarray:
    """The probability the goal is stated on: binary p of the answer, choice the top p."""
    if task.kind == "binary":
        p = np.array([float(getattr(answer, "probability", 0.0)) for answer, _ in rows])
        return np.maximum(p, 1 - p)
    return np.array([float(probabilities.max()) for _, probabilities in rows])


def chance(top: np.ndarray, measured: float, rng: np.random.Generator) -> tuple[float, ...]:
    """Of a perfectly calibrated model: mean ECE, share of draws ≤ ``GOAL`` and share of
    draws ≥ ``measured`` (how often calibration alone reads this far off)."""
    draws = np.array([ece(top, (rng.random(len(top)) < top).astype(float)) for _ in range(DRAWS)])
    return float(draws.mean()), float(np.mean(draws <= GOAL)), float(np.mean(draws >= measured))


def main() -> None:
    tasks = all_tasks(splits())
    encoder = cached_encoder(["use"], texts_of(tasks))
    calibration = get_calibration()
    rng = np.random.default_rng(0)
    found = {}
    print(f"model {calibration.model}; {DRAWS} draws per set\n")
    print(
        "| set | n | measured ECE | perfect model: mean ECE | P(ECE ≤ 0.05) | P(ECE ≥ measured) |"
    )
    print("|---|---|---|---|---|---|")
    for task in reported(tasks):
        if task.kind not in ("choice", "binary") or "sentence" in task.name:
            continue
        rows = decide_rows(encoder, calibration, task)
        top = answer_probabilities(task, rows)
        truth = [row[2] for row in task.rows]
        correct = np.array(
            [a.answer == t for (a, _), t in zip(rows, truth, strict=True)], dtype=float
        )
        measured = ece(top, correct)
        floor, passes, beyond = chance(top, measured, rng)
        found[task.name] = {
            "n": len(top),
            "ece": measured,
            "floor": floor,
            "p_pass": passes,
            "p_as_far": beyond,
        }
        figures = f"{measured:.3f} | {floor:.3f} | {passes:.3f} | {beyond:.3f}"
        print(f"| {task.name} | {len(top)} | {figures} |")
    (OUT / "decide-floor.json").write_text(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
