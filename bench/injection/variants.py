"""Two-stage variants judged without dev: out of fold, on the team's held-out file, and with
a source left out (report only; dev is never read).

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.variants [--loso SOURCE ...]

Each variant is a first stage (USE + patterns) and a second (USE + e5 + patterns, read for
first scores in ``fitting.BAND``), each head a logistic or an MLP (``mlp.fit_fold``; several
seeds: the mean of their probabilities). Its threshold is the one for 3 % FPR on the pooled
out-of-fold train benign scores of the two-stage score, built from the stored
``bench/.out/cv-*.npy`` (``cv`` and ``mlp`` runs). Then:

- team: the heads fitted on all of train plus the team prompts score the team's held-out
  ``injection_eval.txt`` at that threshold (TPR / FPR per language, AUC);
- ``--loso``: the heads fitted without SOURCE (team prompts kept) score SOURCE's train
  prompts at the same threshold; AUC: SOURCE's benign against the team file's attacks, or
  its attacks against the team file's benign (both never fitted on).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from bench.injection.cascade import cascaded
from bench.injection.cv import summary, training_sets
from bench.injection.data import OUT, Prompt, StoredVectors, read_split
from bench.injection.figures import read_team_set
from bench.injection.fitting import (
    BAND,
    SECOND,
    SHIPPED,
    Recipe,
    TrainingSet,
    fit_recipe,
    threshold_for,
)
from bench.injection.mlp import Settings, fit_fold
from bench.injection.report import roc_auc
from bench.injection.views import Views
from numpy.typing import NDArray

Scorer = Callable[[NDArray[np.float32], str], float]


@dataclass(frozen=True)
class Head:
    """One stage: a logistic (``settings`` empty) or the mean of MLPs; ``stored``: the names
    of its out-of-fold scores ``cv-{name}.npy``."""

    recipe: Recipe
    settings: tuple[Settings, ...]
    stored: tuple[str, ...]

    def fit(self, data: TrainingSet, cache: dict[object, Scorer]) -> Scorer:
        """The stage fitted on ``data``: a function of a message's full rows and text."""
        parts: list[Scorer] = []
        for settings in self.settings or (None,):
            key = (id(data), self.recipe, settings)
            if key not in cache:
                cache[key] = _fitted(self.recipe, data, settings)
            parts.append(cache[key])
        return lambda rows, text: float(np.mean([p(rows, text) for p in parts]))

    def oof(self) -> NDArray[np.float64]:
        return np.mean([np.load(OUT / f"cv-{name}.npy") for name in self.stored], axis=0)


def _fitted(recipe: Recipe, data: TrainingSet, settings: Settings | None) -> Scorer:
    if settings is None:
        head = fit_recipe(recipe, data)
        return lambda rows, text: head.score_rows(recipe.rows(rows, text))
    model, _, _ = fit_fold(recipe, data, settings)
    return lambda rows, text: model.score_rows(recipe.rows(rows, text))


def _seeds(hidden: int, decay: float, n: int) -> tuple[Settings, ...]:
    return tuple(Settings(hidden=hidden, decay=decay, seed=s) for s in range(n))


LOGISTIC_FIRST = Head(SHIPPED, (), ("shipped",))
LOGISTIC_SECOND = Head(SECOND, (), ("use-e5",))
MLP_FIRST = Head(
    SHIPPED, _seeds(128, 1e-3, 3), tuple(f"shipped-mlp128-wd0.001-s{s}" for s in range(3))
)
VARIANTS: dict[str, tuple[Head, Head | None]] = {
    "1.2.0 logistic / logistic": (LOGISTIC_FIRST, LOGISTIC_SECOND),
    "1.3.0 logistic / MLP 128 s0": (
        LOGISTIC_FIRST,
        Head(SECOND, _seeds(128, 1e-3, 1), ("mlp128-wd0.001-s0",)),
    ),
    "(1) logistic / MLP 128 mean of 3": (
        LOGISTIC_FIRST,
        Head(SECOND, _seeds(128, 1e-3, 3), tuple(f"mlp128-wd0.001-s{s}" for s in range(3))),
    ),
    "(2a) MLP-USE 128 mean of 3 alone": (MLP_FIRST, None),
    "(2b) MLP-USE mean of 3 / logistic": (MLP_FIRST, LOGISTIC_SECOND),
    "(2c) MLP-USE mean of 3 / MLP 128 mean of 3": (
        MLP_FIRST,
        Head(SECOND, _seeds(128, 1e-3, 3), tuple(f"mlp128-wd0.001-s{s}" for s in range(3))),
    ),
    "(3a) logistic / MLP 128 decay 1e-2 s0": (
        LOGISTIC_FIRST,
        Head(SECOND, (Settings(hidden=128, decay=1e-2),), ("mlp128-wd0.01-s0",)),
    ),
    "(3d) logistic / MLP 128 decay 1e-2 mean of 3": (
        LOGISTIC_FIRST,
        Head(SECOND, _seeds(128, 1e-2, 3), tuple(f"mlp128-wd0.01-s{s}" for s in range(3))),
    ),
    "(3b) logistic / MLP 64 s0": (
        LOGISTIC_FIRST,
        Head(SECOND, _seeds(64, 1e-3, 1), ("mlp64-wd0.001-s0",)),
    ),
    "(3c) logistic / MLP 32 s0": (
        LOGISTIC_FIRST,
        Head(SECOND, _seeds(32, 1e-3, 1), ("mlp32-wd0.001-s0",)),
    ),
}


def two_stage(first: Scorer, second: Scorer | None) -> Scorer:
    def score(rows: NDArray[np.float32], text: str) -> float:
        found = first(rows, text)
        if second is not None and BAND[0] <= found < BAND[1]:
            found = second(rows, text)
        return found

    return score


def _rate(mask: NDArray[np.bool_], fired: NDArray[np.bool_]) -> str:
    return f"{fired[mask].mean():.3f}" if mask.any() else "–"


def team_line(scores: NDArray[np.float64], team: Sequence[Prompt], threshold: float) -> str:
    labels = np.array([p.label for p in team])
    lang = np.array([p.lang for p in team])
    fired = scores >= threshold
    parts = [f"TPR {_rate(labels == 1, fired)} FPR {_rate(labels == 0, fired)}"]
    for name in ("es", "pt", "en"):
        parts.append(
            f"{name} {_rate((labels == 1) & (lang == name), fired)} / "
            f"{_rate((labels == 0) & (lang == name), fired)}"
        )
    parts.append(f"AUC {roc_auc(scores[labels == 1], scores[labels == 0]):.4f}")
    return " | ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", help="names (prefixes) of VARIANTS to run")
    parser.add_argument("--loso", nargs="*", default=[], help="sources to leave out")
    parser.add_argument("--no-team", action="store_true", help="skip the fit on all of train")
    args = parser.parse_args()
    train = read_split("train")
    labels = np.array([p.label for p in train])
    data, team_train = training_sets(SECOND, train, StoredVectors())
    team = read_team_set()
    team_rows = TrainingSet.build(team, StoredVectors(), views=Views()).rows
    team_labels = np.array([p.label for p in team])
    cache: dict[object, Scorer] = {}
    fits = {} if args.no_team else {"all": data.plus(team_train)}
    for source in args.loso:
        keep = np.flatnonzero([p.source != source for p in train])
        fits[source] = data.subset(keep).plus(team_train)
    chosen = [
        n for n in VARIANTS if not args.variants or any(n.startswith(v) for v in args.variants)
    ]
    for name in chosen:
        first, second = VARIANTS[name]
        oof = first.oof() if second is None else cascaded(first.oof(), second.oof(), *BAND)
        threshold = threshold_for(oof[labels == 0], 0.03)
        print(f"\n## {name} (threshold {threshold:.4f})")
        print(summary("  out of fold", train, oof))
        for key, fitted in fits.items():
            score = two_stage(
                first.fit(fitted, cache), second.fit(fitted, cache) if second else None
            )
            team_scores = np.array([score(r, p.text) for r, p in zip(team_rows, team, strict=True)])
            if key == "all":
                print("  team held out: " + team_line(team_scores, team, threshold), flush=True)
                continue
            held = [(p, r) for p, r in zip(train, data.rows, strict=True) if p.source == key]
            found = np.array([score(r, p.text) for p, r in held])
            held_labels = np.array([p.label for p, _ in held])
            pos, neg = found[held_labels == 1], found[held_labels == 0]
            auc = (
                roc_auc(pos, team_scores[team_labels == 0])
                if len(pos)
                else roc_auc(team_scores[team_labels == 1], neg)
            )
            fired = found >= threshold
            print(
                f"  without {key}: TPR {_rate(held_labels == 1, fired)} "
                f"FPR {_rate(held_labels == 0, fired)} | AUC vs team file {auc:.4f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
