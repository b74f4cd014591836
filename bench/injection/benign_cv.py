"""Do benign customer-like sources (``benign.py``) help? Judged without dev (report only).

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.benign_cv run [--benign] [--seed S]
        [--no-mlp] [--loso SOURCE ...]
    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.benign_cv report

``run`` fits, for one condition (with ``--benign``: the new benign prompts are fitted on,
as sources of their own; without: they are only scored), the first stage (logistic, USE +
patterns: ``fitting.SHIPPED``), the second (USE + e5 + patterns: the logistic ``SECOND``
and, unless ``--no-mlp``, the MLP of ``mlp.fit_fold``, 128 units, decay 1e-2, seed ``S``)
and stores every score in ``bench/.out/benign-{cond}-s{S}.npz``:

- out of fold: ``train.jsonl`` and the new benign prompts pooled, grouped 5-fold CV as
  ``bench.injection.cv`` (fold = ``crc32(group) % 5``; team prompts in every fold's fitting);
- fitted on everything (train, team prompts, and the new benign with ``--benign``): the
  team's held-out ``injection_eval.txt`` and the held-out slice of the new sources;
- ``--loso``: fitted without SOURCE, SOURCE's train prompts and the team file.

``report`` combines them into two-stage scores (the second stage's in ``fitting.BAND`` of
the first's; "mean of 3" = the mean MLP probability of seeds 0–2), with the threshold at
3 % FPR on the pooled out-of-fold two-stage scores of train's benign prompts (as ``medium``
is chosen on dev's, which has no new-source prompt), and prints per candidate the ``cv``
summary, the new sources' out-of-fold and held-out false alarms, the team file's figures
and the left-out sources'.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from bench.injection.benign import SOURCES, read_benign
from bench.injection.cascade import cascaded
from bench.injection.cv import FOLDS, fold_of, summary
from bench.injection.data import OUT, Prompt, StoredVectors, read_split, read_team_train
from bench.injection.figures import read_team_set
from bench.injection.fitting import BAND, SECOND, SHIPPED, TrainingSet, fit_recipe, threshold_for
from bench.injection.mlp import Settings, fit_fold
from bench.injection.report import roc_auc
from bench.injection.variants import team_line
from bench.injection.views import Views
from numpy.typing import NDArray

Scores = NDArray[np.float64]
STAGES = ("first", "logit2", "mlp")
MLP = Settings(hidden=128, decay=1e-2)


def _path(benign: bool, seed: int) -> Path:
    return OUT / f"benign-{'with' if benign else 'without'}-s{seed}.npz"


def _score(
    data: TrainingSet, fitted: TrainingSet, use_mlp: bool, settings: Settings
) -> dict[str, Scores]:
    """Each stage fitted on ``fitted`` scores ``data``'s prompts."""
    first = fit_recipe(SHIPPED, fitted)
    out = {"first": [first.score_rows(SHIPPED.rows(r, "")) for r in data.rows]}
    if use_mlp:
        model, second, _ = fit_fold(SECOND, fitted, settings)
        out["mlp"] = [model.score_rows(SECOND.rows(r, "")) for r in data.rows]
    else:
        second = fit_recipe(SECOND, fitted)
    out["logit2"] = [second.score_rows(SECOND.rows(r, "")) for r in data.rows]
    return {name: np.array(values) for name, values in out.items()}


def run(benign: bool, seed: int, use_mlp: bool, loso: Sequence[str]) -> None:
    embed, views = StoredVectors(), Views()
    train = read_split("train")
    fit_benign, held = read_benign()
    pool = TrainingSet.build(train + fit_benign, embed, views=views)
    team = TrainingSet.build(read_team_train(), embed, views=views)
    team_file = TrainingSet.build(read_team_set(), embed, views=views)
    held_set = TrainingSet.build(held, embed, views=views)
    settings = Settings(hidden=MLP.hidden, decay=MLP.decay, seed=seed)
    fits = np.array([benign or p.source not in SOURCES for p in pool.prompts])
    folds = np.array([fold_of(p) for p in pool.prompts])
    stored: dict[str, Scores] = {}
    oof = {name: np.zeros(len(pool.prompts)) for name in STAGES}
    for fold in range(FOLDS):
        scored = np.flatnonzero(folds == fold)
        fitted = pool.subset(np.flatnonzero((folds != fold) & fits)).plus(team)
        for name, values in _score(pool.subset(scored), fitted, use_mlp, settings).items():
            oof[name][scored] = values
        print(f"  fold {fold} done", flush=True)
    stored |= {f"oof_{name}": values for name, values in oof.items()}
    everything = pool.subset(np.flatnonzero(fits)).plus(team)
    for prefix, data in (("team", team_file), ("held", held_set)):
        for name, values in _score(data, everything, use_mlp, settings).items():
            stored[f"{prefix}_{name}"] = values
    for source in loso:
        keep = np.flatnonzero(fits & np.array([p.source != source for p in pool.prompts]))
        fitted = pool.subset(keep).plus(team)
        left = pool.subset(np.flatnonzero([p.source == source for p in pool.prompts]))
        both = TrainingSet(left.prompts + team_file.prompts, left.rows + team_file.rows)
        for name, values in _score(both, fitted, use_mlp, settings).items():
            stored[f"loso-{source}_{name}"] = values
        print(f"  without {source} done", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez(_path(benign, seed), **stored)  # type: ignore[arg-type]


CANDIDATES: dict[str, tuple[bool, str, tuple[int, ...]]] = {
    "1.2.0 (logistic / logistic), no new benign": (False, "logit2", (0,)),
    "1.2.0 recipe + new benign": (True, "logit2", (0,)),
    "(3d) logistic / MLP 128 decay 1e-2 mean of 3, no new benign": (False, "mlp", (0, 1, 2)),
    "(3d) + new benign": (True, "mlp", (0, 1, 2)),
}
"""Name → (fitted on the new benign, second stage, seeds)."""


def _two_stage(files: list[dict[str, Scores]], prefix: str, second: str) -> Scores:
    first = files[0][f"{prefix}_first"]
    later = np.mean([f[f"{prefix}_{second}"] for f in files], axis=0)
    return cascaded(first, later, *BAND)


def _fired(prompts: Sequence[Prompt], scores: Scores, threshold: float) -> str:
    parts = []
    for source in SOURCES:
        mask = np.array([p.source == source for p in prompts])
        for lang in sorted({p.lang for p in prompts if p.source == source}):
            sub = mask & np.array([p.lang == lang for p in prompts])
            name = source if source != "sib200" else f"sib200-{lang}"
            parts.append(f"{name} {int((scores[sub] >= threshold).sum())}/{int(sub.sum())}")
    total = int((scores >= threshold).sum())
    return f"{total}/{len(scores)} ({total / len(scores):.3f}): " + ", ".join(parts)


def report(loso: Sequence[str]) -> None:
    train = read_split("train")
    fit_benign, held = read_benign()
    team = read_team_set()
    team_labels = np.array([p.label for p in team])
    labels = np.array([p.label for p in train])
    n = len(train)
    for name, (benign, second, seeds) in CANDIDATES.items():
        paths = [_path(benign, s) for s in seeds]
        if not all(p.exists() for p in paths):
            print(f"\n## {name}: not run")
            continue
        files = [dict(np.load(p)) for p in paths]
        oof = _two_stage(files, "oof", second)
        threshold = threshold_for(oof[:n][labels == 0], 0.03)
        print(f"\n## {name} (threshold {threshold:.4f})")
        print(summary("  out of fold", train, oof[:n]))
        print(f"  new benign out of fold flagged: {_fired(fit_benign, oof[n:], threshold)}")
        held_scores = _two_stage(files, "held", second)
        print(f"  new benign held out flagged: {_fired(held, held_scores, threshold)}")
        team_scores = _two_stage(files, "team", second)
        print("  team held out: " + team_line(team_scores, team, threshold))
        for source in loso:
            if f"loso-{source}_first" not in files[0]:
                continue
            both = _two_stage(files, f"loso-{source}", second)
            left, on_team = both[: -len(team)], both[-len(team) :]
            left_labels = np.array([p.label for p in train + fit_benign if p.source == source])
            pos, neg = left[left_labels == 1], left[left_labels == 0]
            auc = roc_auc(pos, on_team[team_labels == 0]) if len(pos) else 0.0
            if not len(pos):
                auc = roc_auc(on_team[team_labels == 1], neg)
            fired = left >= threshold
            tpr = f"{fired[left_labels == 1].mean():.3f}" if len(pos) else "–"
            fpr = f"{fired[left_labels == 0].mean():.3f}" if len(neg) else "–"
            print(f"  without {source}: TPR {tpr} FPR {fpr} | AUC vs team file {auc:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["run", "report"])
    parser.add_argument("--benign", action="store_true", help="fit on the new benign too")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-mlp", action="store_true", help="logistic stages only")
    parser.add_argument("--loso", nargs="*", default=["self-instruct", "bipia", "deepset-pi"])
    args = parser.parse_args()
    if args.action == "run":
        run(args.benign, args.seed, not args.no_mlp, args.loso)
    else:
        report(args.loso)


if __name__ == "__main__":
    main()
