"""The one writer of ``vigia-injection-2.0.0``: fine-tune, export, then calibrate.

``.venv-training/bin/python -m training.injection.build --data DIR`` runs
``training.injection.train`` (all epochs) and ``training.injection.export`` (last epoch)
in the training environment, then ``training.injection.calibrate`` with the plain ``.venv``
(it scores through ``vigia`` itself), each with the same arguments.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

RUN_TIME_PYTHON = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "python"


def main() -> None:
    extra = sys.argv[1:]
    for python, module in (
        (sys.executable, "training.injection.train"),
        (sys.executable, "training.injection.export"),
        (str(RUN_TIME_PYTHON), "training.injection.calibrate"),
    ):
        subprocess.run([python, "-m", module, *extra], check=True)


if __name__ == "__main__":
    main()
