"""Grouped cross-validation of injection-head recipes on ``train.jsonl`` only (dev untouched).

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.cv [RECIPE ...]

Folds: each prompt's ``group`` (the source item: a BIPIA context with its attacked versions,
the translations of one PurpleLlama prompt, a near-duplicate cluster) goes to fold
``crc32(group) % 5``, so no item is scored by a head that saw it. Out-of-fold scores of all
folds are pooled; the threshold is the one for a 3 % false-positive rate on the pooled
benign prompts (as ``medium`` is chosen on dev), and TPR / FPR / AUC are reported per
language and per source. The team's ``injection_team_train.txt`` prompts, when a recipe
uses them, are in every fold's fitting and never scored.
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Sequence

import numpy as np
from bench.injection.data import OUT, Prompt, StoredVectors, read_split, read_team_train
from bench.injection.fitting import (
    RECIPES,
    Recipe,
    TrainingSet,
    fit_recipe,
    threshold_for,
)
from bench.injection.report import print_table, roc_auc, slice_rows
from bench.injection.views import Views

FOLDS = 5


def fold_of(prompt: Prompt) -> int:
    """The fold of ``prompt``'s group (the same group, the same fold)."""
    return zlib.crc32(prompt.group.encode("utf-8")) % FOLDS


_BUILT: dict[tuple[int, bool, bool], tuple[TrainingSet, TrainingSet]] = {}


def training_sets(
    recipe: Recipe, train: Sequence[Prompt], embed: StoredVectors
) -> tuple[TrainingSet, TrainingSet]:
    """The train and team sets with the rows ``recipe`` needs (built once per kind)."""
    key = (recipe.segment_chars, recipe.extras, bool(recipe.e5))
    if key not in _BUILT:
        views = Views(e5=bool(recipe.e5)) if recipe.extras else None
        size = recipe.segment_chars
        _BUILT[key] = (
            TrainingSet.build(train, embed, size, views),
            TrainingSet.build(read_team_train(), embed, size, views),
        )
    return _BUILT[key]


def out_of_fold(recipe: Recipe, train: Sequence[Prompt], embed: StoredVectors) -> np.ndarray:
    """Each training prompt's score by the head fitted on the other folds (and team prompts)."""
    data, team_set = training_sets(recipe, train, embed)
    team = team_set if recipe.team else None
    folds = np.array([fold_of(p) for p in train])
    scores = np.zeros(len(train))
    for fold in range(FOLDS):
        keep = np.flatnonzero(folds != fold)
        part = data.subset(keep)
        head = fit_recipe(recipe, part if team is None else part.plus(team), embed)
        for i in np.flatnonzero(folds == fold):
            scores[i] = head.score_rows(recipe.rows(data.rows[i], data.prompts[i].text))
    return scores


def summary(name: str, prompts: Sequence[Prompt], scores: np.ndarray) -> str:
    """One line: the figures the acceptance asks for, at 3 % pooled FPR."""
    labels = np.array([p.label for p in prompts])
    threshold = threshold_for(scores[labels == 0], 0.03)
    fired = scores >= threshold

    def rate(mask: np.ndarray) -> str:
        return f"{fired[mask].mean():.3f}" if mask.any() else "–"

    by = {
        "en FPR": rate((labels == 0) & np.array([p.lang == "en" for p in prompts])),
        "bipia TPR": rate((labels == 1) & np.array([p.source == "bipia" for p in prompts])),
        "bipia FPR": rate((labels == 0) & np.array([p.source == "bipia" for p in prompts])),
        "deepset TPR": rate((labels == 1) & np.array([p.source == "deepset-pi" for p in prompts])),
        "self-instr FPR": rate(
            (labels == 0) & np.array([p.source == "self-instruct" for p in prompts])
        ),
        "es TPR": rate((labels == 1) & np.array([p.lang == "es" for p in prompts])),
        "pt TPR": rate((labels == 1) & np.array([p.lang == "pt" for p in prompts])),
    }
    auc = roc_auc(scores[labels == 1], scores[labels == 0])
    en = np.array([p.lang == "en" for p in prompts])
    bipia = np.array([p.source == "bipia" for p in prompts])
    by["en AUC"] = f"{roc_auc(scores[en & (labels == 1)], scores[en & (labels == 0)]):.4f}"
    by["bipia AUC"] = f"{roc_auc(scores[bipia & (labels == 1)], scores[bipia & (labels == 0)]):.4f}"
    parts = " | ".join(f"{k} {v}" for k, v in by.items())
    return f"{name}: AUC {auc:.4f} | TPR {fired[labels == 1].mean():.3f} | {parts}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipes", nargs="*", default=list(RECIPES))
    parser.add_argument("--tables", action="store_true", help="print every slice too")
    args = parser.parse_args()
    train = read_split("train")
    embed = StoredVectors()
    for name in args.recipes:
        scores = out_of_fold(RECIPES[name], train, embed)
        OUT.mkdir(parents=True, exist_ok=True)
        np.save(OUT / f"cv-{name}.npy", scores)
        print(summary(name, train, scores), flush=True)
        if args.tables:
            labels = np.array([p.label for p in train])
            threshold = threshold_for(scores[labels == 0], 0.03)
            print_table(f"{name}, out of fold:", slice_rows(train, scores, threshold))


if __name__ == "__main__":
    main()
