"""The one writer of decide's calibration, ``src/vigia/decide/calibration.json``.

    .venv/bin/python -m training.decide_calibration [--dry-run]

Fits the calibration on the ``fit`` parts of the decisions benchmark's dev tasks (CLINC150
train, Banking77 train, SIB-200 es/pt/en train; ``bench/decide/tasks.py``), starting from
the shipped file for what is not fitted, and rewrites the file (``--dry-run``: prints it).
The data folder is ``$VIGIA_BENCH_DATA``; the fitting code is shared with the measurement
``bench/decide_eval.py --heldout`` (``bench/decide/refit.py``). Vectors are cached under
``bench/.out/``. The manifest (``training/manifest.json``) records the inputs and the
expected digest of the output.
"""

from __future__ import annotations

import argparse
import json
import sys

from bench.decide.datasets import cached_encoder, splits
from bench.decide.refit import fit
from bench.decide.tasks import all_tasks, texts_of

from vigia.decide.calibration import CALIBRATION_FILE, get_calibration


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="print the file, write nothing")
    args = parser.parse_args(argv)
    parts = splits()
    tasks = all_tasks(parts)
    encoder = cached_encoder(["use", "e5"], texts_of(tasks))
    calibration, _ = fit(encoder, get_calibration(), tasks, parts)
    text = json.dumps(calibration.to_json(), indent=2) + "\n"
    if args.dry_run:
        print(text)
        return
    CALIBRATION_FILE.write_text(text)
    print(f"wrote {CALIBRATION_FILE} ({calibration.model})", file=sys.stderr)


if __name__ == "__main__":
    main()
