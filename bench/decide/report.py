"""Figures of the dev tasks through the product's own code (``service``), per set and language.

Each row is decided exactly as ``POST /v1/decide`` decides it (``plan_question``,
``run_model``, ``to_answer`` with the calibrated default threshold), so ``abstain`` is the
API's. Figures:

- ``accuracy``: the answer is the labelled one (binary: ``answer`` = p ≥ 0.5).
- ``ece``: 15-bin ECE of the answer's probability (choice/scale: the top probability;
  binary: max(p, 1 − p)).
- ``answered`` (coverage) and ``selective_accuracy``: share of rows not abstained, and
  accuracy on them, at the shipped default ``min_confidence`` of the type.
- scale also ``mae``: mean |value − level| in levels.
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
from bench.decide.metrics import calibration_figures
from bench.decide.tasks import Task

from vigia.decide import inference, service
from vigia.decide.calibration import Calibration
from vigia.decide.encoder import TextEncoder
from vigia.decide.schemas import Question


def decide_rows(
    encoder: TextEncoder, calibration: Calibration, task: Task
) -> list[tuple[Any, np.ndarray]]:
    """The API answer and the model's probabilities for every row of ``task``."""
    plans: dict[int, tuple[Question, inference.Plan]] = {}
    results = []
    for state, wire, _ in task.rows:
        if id(wire) not in plans:
            question = Question.model_validate(wire)
            plans[id(wire)] = (question, inference.plan_question(question))
        question, plan = plans[id(wire)]
        outcome = inference.run_model(state, [plan], encoder, calibration)[0]
        answer = service.to_answer(outcome, service.threshold(question, None, calibration))
        results.append((answer, outcome.probabilities))
    return results


def figures(
    answers: list[Any], probabilities: list[np.ndarray], truth: list[Any], kind: str
) -> dict[str, float]:
    """Accuracy, ECE, coverage and selective accuracy of some decided rows."""
    correct = np.array([a.answer == t for a, t in zip(answers, truth, strict=True)], dtype=float)
    if kind == "binary":
        p = np.array([a.probability for a in answers])
        top = np.maximum(p, 1 - p)
    else:
        top = np.array([float(row.max()) for row in probabilities])
    answered = np.array([not a.abstain for a in answers])
    result = calibration_figures(top, correct, answered)
    if kind == "scale":
        levels = [list(a.probabilities) for a in answers]
        values = np.array([a.value for a in answers])
        truth_index = np.array([lv.index(t) for lv, t in zip(levels, truth, strict=True)])
        result["mae"] = float(np.abs(values - truth_index).mean())
    return result


def evaluate_task(
    encoder: TextEncoder, calibration: Calibration, task: Task
) -> dict[str, dict[str, float]]:
    """Figures of a task overall (``all``) and per language of its asks and labels."""
    decided = decide_rows(encoder, calibration, task)
    answers = [a for a, _ in decided]
    probabilities = [p for _, p in decided]
    truth = [r[2] for r in task.rows]
    report = {"all": figures(answers, probabilities, truth, task.kind)}
    by_lang: dict[str, list[int]] = collections.defaultdict(list)
    for index, lang in enumerate(task.langs):
        by_lang[lang].append(index)
    if len(by_lang) > 1:
        for lang, rows in sorted(by_lang.items()):
            report[lang] = figures(
                [answers[i] for i in rows],
                [probabilities[i] for i in rows],
                [truth[i] for i in rows],
                task.kind,
            )
    if task.out_of_scope:
        wire = task.rows[0][1]
        question = Question.model_validate(wire)
        plan = inference.plan_question(question)
        limit = service.threshold(question, None, calibration)
        abstained = [
            service.to_answer(
                inference.run_model(s, [plan], encoder, calibration)[0], limit
            ).abstain
            for s in task.out_of_scope
        ]
        report["all"]["oos_abstain"] = float(np.mean(abstained))
    return report


def table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    """A Markdown table of every task and language."""
    lines = [
        "| set | lang | n | accuracy | ECE (floor) | mean p | answered | selective acc. | extra |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, parts in results.items():
        for lang, f in parts.items():
            extra = ", ".join(f"{k} {f[k]:.3f}" for k in ("mae", "oos_abstain") if k in f)
            lines.append(
                f"| {name} | {lang} | {int(f['n'])} | {f['accuracy']:.3f} | "
                f"{f['ece']:.3f} ({f.get('ece_floor', float('nan')):.3f}) | "
                f"{f['mean_p']:.3f} | {f['answered']:.3f} | {f['selective_accuracy']:.3f} | "
                f"{extra} |"
            )
    return "\n".join(lines)
