"""Choose the shipped classifier's thresholds from what the input check itself computes.

``python -m training.injection.calibrate --data DIR`` (plain ``.venv``: no torch) scores the
validation slice (``training.injection.data.split``) with ``vigia.guardrails.injection.scores``
(the run-time reading: a long text is also read segment by segment and the highest score
counts) and writes, into the shipped ``model.json``, per sensitivity the lowest threshold whose
benign FPR averaged over the sources is at most ``thresholds.FPR_TARGETS`` (the rule of
``thresholds.thresholds_for``), with the validation TPR and FPR at each. The export's own
thresholds read one window per text, which a long benign document's segments exceed.

It also rewrites what the export computed with the int8 graph, so that every int8 figure
of ``model.json`` comes from the run time's session (exact integer kernels, one window a
run): the one-window validation figures (``validation.int8``, at the one-window
thresholds) and the probe scores the loader's tests check.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from training.encoder import corpus
from training.injection import data as rows_data
from training.injection.thresholds import SHIPPED, figures, thresholds_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    args = parser.parse_args()
    from vigia.guardrails import injection

    _, validation = rows_data.split(rows_data.load_rows(corpus.data_dir(args.data)))
    labels = np.array([r.label for r in validation])
    sources = np.array([r.source for r in validation])
    model = injection.get_model()
    one_window = np.array(model.attack_probabilities([r.text for r in validation]))
    scores = np.array(injection.scores([r.text for r in validation]))
    cuts = thresholds_for(labels, scores, sources)
    path = SHIPPED / "model.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta["validation"]["int8"] = figures(
        labels, one_window, thresholds_for(labels, one_window, sources)
    )
    texts = [probe["text"] for probe in meta["probes"]]
    meta["probes"] = [
        {"text": text, "attack": model.attack_probabilities([text])[0]} for text in texts
    ]
    meta["thresholds"] = cuts
    meta["thresholds_on"]["reading"] = "run time (vigia.guardrails.injection.scores)"
    meta["validation"]["int8_run_time"] = figures(labels, scores, cuts)
    path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"thresholds": cuts, **meta["validation"]["int8_run_time"]}, indent=1))


if __name__ == "__main__":
    main()
