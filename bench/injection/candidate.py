"""A two-stage candidate whose second stage is the mean of several MLPs, judged on dev.

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.candidate [--seeds 0 1 2]

The product has no MLP second stage (1.3.0's was not shipped), so this builds the candidate
of ``benign_cv`` "(3d) + new benign" in the bench, as ``bench/fit_injection.py`` would
package it: both stages fitted on ``train.jsonl``, the benign prompts of ``benign.py`` and
the team's ``injection_team_train.txt``; the first stage the shipped logistic (weights
rounded as written to ``injection_head.json``); the second the mean probability of MLPs
(``mlp.fit_fold``, 128 units, decay 1e-2, one per seed; weights rounded to float32, as
1.3.0's file stored them), read in ``fitting.BAND``. Thresholds: 1 / 3 / 8 % FPR on dev's
benign prompts, as the fit script chooses them. Then ``figures.report`` prints the same
tables as ``bench/guardrails_eval.py --parts injection`` (without ``--loso``: leaving each
source out would refit three MLPs per source).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import numpy as np
from bench.injection.benign import read_benign
from bench.injection.cascade import product_scores
from bench.injection.data import StoredVectors, read_split, read_team_train
from bench.injection.figures import report
from bench.injection.fitting import (
    BAND,
    FPR_BY_SENSITIVITY,
    SECOND,
    SHIPPED,
    TrainingSet,
    fit_recipe,
    head_json,
    threshold_for,
)
from bench.injection.mlp import MLP, Settings, fit_fold
from bench.injection.views import Views
from numpy.typing import NDArray

from vigia.guardrails.injection import InjectionHead
from vigia.guardrails.injection_cascade import SecondStage

MODEL = "vigia-injection-1.3.0 candidate (MLP mean of 3, new benign)"


@dataclass(frozen=True)
class MeanMLPStage(SecondStage):
    """The second stage as the mean probability of ``models`` over its rows."""

    models: tuple[MLP, ...] = field(default=())

    def score_rows(self, rows: NDArray[np.float64]) -> float:
        return float(np.mean([m.score_rows(rows) for m in self.models]))


def _as_float32(model: MLP) -> MLP:
    def rounded(a: NDArray[np.float64]) -> NDArray[np.float64]:
        return a.astype(np.float32).astype(np.float64)

    return MLP(
        rounded(model.mean),
        rounded(model.scale),
        rounded(model.w1),
        rounded(model.b1),
        rounded(model.w2),
        float(np.float32(model.b2)),
    )


def build(seeds: list[int]) -> InjectionHead:
    """The candidate head with its thresholds chosen on dev."""
    embed, views = StoredVectors(), Views()
    benign, _ = read_benign()
    data = TrainingSet.build(read_split("train"), embed, views=views)
    data = data.plus(TrainingSet.build(benign, embed, views=views))
    data = data.plus(TrainingSet.build(read_team_train(), embed, views=views))
    first, logistic = fit_recipe(SHIPPED, data), fit_recipe(SECOND, data)
    draft = InjectionHead.from_json(head_json(first, logistic, BAND, {}, {}))
    assert draft.second is not None
    models = []
    for seed in seeds:
        model, _, epochs = fit_fold(SECOND, data, Settings(hidden=128, decay=1e-2, seed=seed))
        print(f"seed {seed}: {epochs} epochs", flush=True)
        models.append(_as_float32(model))
    second = MeanMLPStage(
        draft.second.band, draft.second.scales, np.zeros(0), 0.0, models=tuple(models)
    )
    head = InjectionHead(MODEL, draft.weights, draft.bias, {}, second)
    dev = read_split("dev")
    scores = product_scores(head, dev, embed, views)
    benign_scores = scores[np.array([p.label for p in dev]) == 0]
    thresholds = {
        name: round(threshold_for(benign_scores, fpr), 6)
        for name, fpr in FPR_BY_SENSITIVITY.items()
    }
    return InjectionHead(MODEL, draft.weights, draft.bias, thresholds, second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    args = parser.parse_args()
    report(head=build(args.seeds))


if __name__ == "__main__":
    main()
