"""Decisions, issue 12 third round: probes of zero-shot scale and of extra calibration features.

Not shipped; reads through the product's code with the shipped calibration. ``--scale``:
correlation of each zero-shot scoring with the urgency level, an ordered logit on the one
scoring with signal, e5's cost per state. ``--calibration``: binary and choice maps with
extra features (refits the binary map, ~5 min). Vectors come from ``bench/.out/`` as in
``decide_eval.py``; the report is written to ``bench/.out/decide-probes-<probe>.json``.

Run: ``.venv/bin/python bench/decide_probes.py [--scale] [--calibration]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.decide.datasets import OUT, cached_encoder, splits  # noqa: E402
from bench.decide.probes import calibration_probe, scale_probe  # noqa: E402
from bench.decide.tasks import all_tasks, texts_of  # noqa: E402

from vigia.decide.calibration import get_calibration  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", action="store_true", help="zero-shot scale probes")
    parser.add_argument("--calibration", action="store_true", help="extra calibration features")
    args = parser.parse_args()
    parts = splits()
    tasks = all_tasks(parts)
    encoder = cached_encoder(["use", "e5"], texts_of(tasks))
    calibration = get_calibration()
    report: dict[str, object] = {}
    if args.scale:
        report["scale"] = scale_probe(encoder, calibration, tasks)
    if args.calibration:
        report["calibration"] = calibration_probe(encoder, calibration, tasks, parts)
    for probe, found in report.items():
        text = json.dumps(found, indent=1, default=float)
        print(f"## {probe}\n{text}")
        (OUT / f"decide-probes-{probe}.json").write_text(text)


if __name__ == "__main__":
    main()
