"""Decisions benchmark: accuracy, calibration, abstention and latency of ``/v1/decide``.

Dev tasks with bare labels (``bench/decide/tasks.py``): choice over SIB-200 topics
(es/pt/en), SLURP, CLINC150 and Banking77 intents; binary yes/no asks built from them; an
urgency scale derived from intent labels. The shipped calibration is fitted on the ``fit``
parts (CLINC150 train, Banking77 train, SIB-200 train) by ``python -m
training.decide_calibration``; the report is always on the other parts (CLINC150 val,
Banking77 held-out rows, SIB-200 dev, SLURP devel: never fitted on). ``--heldout`` refits
(in memory, nothing written) without each dataset in turn and reports that dataset's sets.

Run: ``.venv/bin/python bench/decide_eval.py [--heldout]``. Vectors of the data are
cached under ``bench/.out/``; the report is also written to ``bench/.out/decide-report.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide.datasets import OUT, cached_encoder, splits  # noqa: E402
from bench.decide.descriptions import CLINC_DESCRIPTIONS  # noqa: E402
from bench.decide.examples import fewshot_questions  # noqa: E402
from bench.decide.refit import fit  # noqa: E402
from bench.decide.report import evaluate_task, table  # noqa: E402
from bench.decide.runner import evaluate_examples, latency  # noqa: E402
from bench.decide.tasks import Kind, Row, Task, all_tasks, texts_of  # noqa: E402

from vigia.decide.calibration import get_calibration  # noqa: E402
from vigia.decide.spec_example import SPEC_QUESTIONS  # noqa: E402


def sentence_style(task: Task) -> Task:
    """CLINC150 val with the team's one-line descriptions as options (reported only)."""
    question = task.rows[0][1]
    keys = [key.replace(" ", "_") for key in question["options"]]
    described = {**question, "options": {key: CLINC_DESCRIPTIONS[key] for key in keys}}
    rows: list[Row] = [(s, described, str(a).replace(" ", "_")) for s, _, a in task.rows]
    return Task("clinc150_val_descriptions", "choice", "clinc150", "report", rows, task.langs)


def reported(tasks: list[Task]) -> list[Task]:
    """The reported tasks, plus the described CLINC150 row and SIB-200 pooled over languages."""
    report_tasks = [t for t in tasks if t.split == "report"]
    report_tasks.insert(1, sentence_style(report_tasks[0]))
    pooled: tuple[tuple[Kind, str], ...] = (("choice", "sib200"), ("binary", "binary_sib200"))
    for kind, prefix in pooled:
        sib = [t for t in report_tasks if t.name.startswith(prefix) and t.kind == kind]
        merged = Task(f"{prefix}_dev_pooled", kind, "sib200", "report")
        for task in sib:
            merged.rows += task.rows
            merged.langs += task.langs
        report_tasks.insert(report_tasks.index(sib[-1]) + 1, merged)
    return report_tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heldout", action="store_true", help="leave-one-dataset-out figures")
    parser.add_argument("--no-examples", action="store_true", help="skip the 10-shot figures")
    parser.add_argument("--latency-requests", type=int, default=200)
    args = parser.parse_args()
    parts = splits()
    tasks = all_tasks(parts)
    report_tasks = reported(tasks)
    encoder = cached_encoder(["use", "e5"], texts_of(tasks))
    calibration = get_calibration()
    report: dict[str, object] = {"model": calibration.model, "calibration": calibration.to_json()}
    dev = {t.name: evaluate_task(encoder, calibration, t) for t in report_tasks}
    report["dev"] = dev
    print("## Dev sets (bare labels), shipped calibration\n\n" + table(dev))
    if not args.no_examples:
        questions = fewshot_questions(parts, fit=False)
        oos = [t for t, _ in parts["clinc_oos_val"]]
        shots = evaluate_examples(encoder, calibration, questions, oos)
        report["examples"] = shots
        print(
            "\n## With examples (10 per option; binary and scale 5 per answer)\n\n" + table(shots)
        )
    if args.heldout:
        held: dict[str, dict[str, dict[str, float]]] = {}
        for dataset in ("clinc150", "banking77", "sib200"):
            kept = [t for t in tasks if t.dataset != dataset]
            refit, _ = fit(encoder, calibration, kept, parts, exclude=dataset)
            for task in report_tasks:
                if task.dataset == dataset:
                    held[f"{task.name} (fit without {dataset})"] = evaluate_task(
                        encoder, refit, task
                    )
        report["heldout"] = held
        print("\n## Held out: fitted without the set's dataset\n\n" + table(held))
    warm_and_timed = args.latency_requests + 5  # the first 5 embed the question texts
    states = [t for t, _ in parts["clinc_val"]]
    step = max(1, len(states) // warm_and_timed)
    report["latency_3_questions"] = latency(
        calibration, states[::step][:warm_and_timed], SPEC_QUESTIONS
    )
    report["cores"] = os.cpu_count() or 0
    print("\nlatency:", json.dumps(report["latency_3_questions"]))
    (OUT / "decide-report.json").write_text(json.dumps(report, indent=1, default=float))


if __name__ == "__main__":
    main()
