"""Decisions benchmark: accuracy, calibration, abstention and latency of ``/v1/decide``.

Fits on one part of the development data and reports on another held back:

- CLINC150: 10 examples per intent from ``train`` are the shots, 10 more per intent (and
  ``oos_train``) are the calibration set ``--fit`` uses; figures are on ``val`` and
  ``oos_val``, never used for fitting or for choosing option texts.
- Banking77 (``train`` only here): 10 shots and 20 held-out queries per intent; reported
  only, never fitted on (it checks that the CLINC-fitted constants transfer).

Zero-shot options are the intents' humanised names with a short description (CLINC150,
written once below without looking at held-out errors) or the names alone (Banking77).

Run: ``.venv/bin/python bench/decide_eval.py [--fit] [--encoders use|use,e5]``. Vectors
of the data are cached under ``bench/.out/``; ``--fit`` rewrites
``src/vigia/decide/calibration.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide.datasets import CLINC_DESCRIPTIONS, cached_encoder, splits  # noqa: E402
from bench.decide.fitting import fit  # noqa: E402
from bench.decide.runner import SPEC_QUESTIONS, evaluate, latency, with_examples  # noqa: E402

from vigia.decide import calibration as calib_module  # noqa: E402
from vigia.decide.calibration import get_calibration  # noqa: E402
from vigia.decide.texts import humanise, option_text  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="refit and rewrite calibration.json")
    parser.add_argument(
        "--encoders", default=None, help="zero-shot: use | e5 | use,e5 (default: shipped)"
    )
    parser.add_argument(
        "--examples-encoders",
        default=None,
        help="with examples: use | e5 | use,e5 (default: shipped)",
    )
    parser.add_argument("--latency-requests", type=int, default=200)
    args = parser.parse_args()
    calibration = get_calibration()
    names = args.encoders.split(",") if args.encoders else list(calibration.encoders)
    example_names = (
        args.examples_encoders.split(",")
        if args.examples_encoders
        else list(calibration.encoders_examples)
    )
    parts = splits()
    clinc = sorted({i for _, i in parts["clinc_shots"]})
    banking = sorted({i for _, i in parts["banking_shots"]})
    clinc_texts = [option_text(i, CLINC_DESCRIPTIONS[i]) for i in clinc]
    banking_texts = [humanise(i) for i in banking]
    everything = [t for pairs in parts.values() for t, _ in pairs] + clinc_texts + banking_texts
    encoder = cached_encoder(list(dict.fromkeys(names + example_names)), everything)
    if (
        args.fit
        or set(names) != set(calibration.encoders)
        or set(example_names) != set(calibration.encoders_examples)
    ):
        calibration = fit(encoder, names, example_names, parts)
        print("fitted:", json.dumps(calibration.to_json()))
    if args.fit:
        calib_module.CALIBRATION_FILE.write_text(json.dumps(calibration.to_json(), indent=2) + "\n")
        print(f"wrote {calib_module.CALIBRATION_FILE.relative_to(ROOT)}")
    report: dict[str, object] = {"model": calibration.model, "encoders": calibration.encoders}
    for name, shots in (("zero_shot", None), ("10_shot", "clinc_shots")):
        report[f"clinc150_{name}"] = evaluate(
            encoder,
            calibration,
            clinc,
            clinc_texts,
            parts["clinc_val"],
            parts[shots] if shots else None,
            parts["clinc_oos_val"],
        )
    for name, shots in (("zero_shot", None), ("10_shot", "banking_shots")):
        report[f"banking77_{name}"] = evaluate(
            encoder,
            calibration,
            banking,
            banking_texts,
            parts["banking_eval"],
            parts[shots] if shots else None,
        )
    messages = [t for t, _ in parts["clinc_val"][:: max(1, 3000 // args.latency_requests)]]
    report["latency_3_questions"] = latency(
        calibration, messages[: args.latency_requests + 5], SPEC_QUESTIONS
    )
    step = max(1, 3000 // args.latency_requests)
    others = [t for t, _ in parts["clinc_val"][step // 2 :: step]]  # states not yet embedded
    report["latency_3_questions_with_examples"] = latency(
        calibration, others[: args.latency_requests // 4 + 5], with_examples(SPEC_QUESTIONS)
    )
    report["cores"] = os.cpu_count() or 0
    print(json.dumps(report, indent=2, default=lambda v: round(v, 4)))
    for section, figures in report.items():
        if isinstance(figures, dict) and "accuracy" in figures:
            line = ", ".join(f"{k} {v:.4f}" for k, v in figures.items())
            print(f"{section}: {line}")


if __name__ == "__main__":
    main()
