"""A one-hidden-layer MLP head over the frozen features of a ``cv`` recipe (train CV only).

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.mlp [--recipe use-e5] [--hidden 128]
        [--decay 1e-3] [--seed 0]
    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.mlp --report NAME … [--first NAME]

Same rows, row weights, benign segments and fragments as ``fitting.fit_recipe`` with the
recipe (default the second stage's: USE + e5 + patterns, MIL, team prompts), and the same
score of a message (its highest row). The MIL segment of each long attack is the one the
logistic head of the same fitting folds ranks highest (``fit_recipe``, one round), so the
MLP is fitted once on the logistic's final rows. Columns are standardised on the fitting
rows; a hidden layer of ReLU units, then one logit (product inference would be two matmuls
and a max).

Fitted by Adam on the weighted cross-entropy plus ``decay / 2`` times the squared weights,
mini-batches of ``BATCH`` rows, at most ``--epochs`` passes. Early stopping: the fitting
folds' groups are split again (``crc32("inner" + group) % 5 == 0`` held out; team prompts
always fit); the epoch with the lowest weighted loss on the held-out rows is chosen, and the
head is then fitted again on all fitting rows for that many epochs. Folds, pooling and the
summary are ``bench.injection.cv``'s; the out-of-fold scores go to ``bench/.out/cv-{name}.npy``
with the logistic's of the same folds (``cv-{recipe}-same-folds.npy``). ``--report``: the
summary of stored scores (``a+b``: their mean) and the line of ``at_equal_recall``;
``--first``: of the two-stage score too (``--first``'s scores, these read in ``fitting.BAND``).
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from bench.injection.cascade import cascaded
from bench.injection.cv import FOLDS, fold_of, summary, training_sets
from bench.injection.data import OUT, Prompt, StoredVectors, read_split
from bench.injection.fitting import (
    BAND,
    RECIPES,
    FitRows,
    Recipe,
    TrainingSet,
    fit_recipe,
    threshold_for,
)
from numpy.typing import NDArray

from vigia.guardrails.injection import InjectionHead

BATCH = 256
INNER = 5

Matrix = NDArray[np.float64]


@dataclass(frozen=True)
class Settings:
    """The MLP's size and fitting settings."""

    hidden: int = 128
    decay: float = 1e-4
    rate: float = 1e-3
    epochs: int = 40
    seed: int = 0


@dataclass
class MLP:
    """Standardisation, one ReLU layer, one logit."""

    mean: Matrix
    scale: Matrix
    w1: Matrix
    b1: Matrix
    w2: Matrix
    b2: float

    def logits(self, x: NDArray[np.floating]) -> Matrix:
        hidden = np.maximum(0.0, ((x - self.mean) / self.scale) @ self.w1 + self.b1)
        return hidden @ self.w2 + self.b2

    def score_rows(self, rows: NDArray[np.floating]) -> float:
        """The score of one message from its rows (the highest row decides)."""
        return float(1.0 / (1.0 + np.exp(-float(self.logits(rows.astype(np.float64)).max()))))


def training_matrix(
    recipe: Recipe, data: TrainingSet, head: InjectionHead
) -> tuple[Matrix, Matrix, Matrix]:
    """Rows, labels and weights as ``fit_recipe`` builds them for its last round: whole
    prompts, benign segments and fragments, and each long attack's segment that ``head``
    (the logistic of the same data) ranks highest."""
    fit = FitRows.build(recipe, data)
    matrix, y, w = fit.with_segments(fit.best_segments(head.weights))
    return matrix.astype(np.float64), y, w


def _loss(model: MLP, x: Matrix, y: Matrix, w: Matrix) -> float:
    z = model.logits(x)
    return float((w * (np.logaddexp(0.0, z) - y * z)).sum() / w.sum())


def fit_mlp(
    x: Matrix,
    y: Matrix,
    w: Matrix,
    settings: Settings,
    epochs: int,
    held: tuple[Matrix, Matrix, Matrix] | None = None,
) -> tuple[MLP, list[float]]:
    """Adam on weighted cross-entropy + ``decay / 2 * |W|²``; with ``held``, the held-out
    loss after each epoch (the model returned is the last epoch's)."""
    rng = np.random.default_rng(settings.seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    width = x.shape[1]
    model = MLP(
        mean,
        scale,
        rng.normal(0.0, np.sqrt(2.0 / width), (width, settings.hidden)),
        np.zeros(settings.hidden),
        rng.normal(0.0, np.sqrt(1.0 / settings.hidden), settings.hidden),
        0.0,
    )
    xs = (x - mean) / scale
    params = [model.w1, model.b1, model.w2, np.array([model.b2])]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    total = w.sum()
    step = 0
    curve = []
    for _ in range(epochs):
        order = rng.permutation(len(xs))
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            xb, yb, wb = xs[idx], y[idx], w[idx] * len(xs) / total
            pre = xb @ params[0] + params[1]
            hidden = np.maximum(0.0, pre)
            z = hidden @ params[2] + params[3][0]
            dz = wb * (1.0 / (1.0 + np.exp(-z)) - yb) / len(idx)
            dh = np.outer(dz, params[2]) * (pre > 0)
            grads = [
                xb.T @ dh + settings.decay * params[0],
                dh.sum(axis=0),
                hidden.T @ dz + settings.decay * params[2],
                np.array([dz.sum()]),
            ]
            step += 1
            for p, g, m, v in zip(params, grads, moments, squares, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= settings.rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        model.b2 = float(params[3][0])
        if held is not None:
            curve.append(_loss(model, *held))
    return model, curve


def _inner(prompt: Prompt) -> bool:
    """Whether ``prompt`` is held out for early stopping (never a team prompt)."""
    if prompt.source == "team":
        return False
    return zlib.crc32(f"inner{prompt.group}".encode()) % INNER == 0


def fit_fold(
    recipe: Recipe, data: TrainingSet, settings: Settings
) -> tuple[MLP, InjectionHead, int]:
    """The MLP fitted on ``data`` (epochs chosen on an inner split), the logistic head of
    the same data, and the chosen number of epochs."""
    head = fit_recipe(recipe, data)
    held = np.array([_inner(p) for p in data.prompts])
    fit_part = data.subset(np.flatnonzero(~held))
    held_part = data.subset(np.flatnonzero(held))
    x, y, w = training_matrix(recipe, fit_part, head)
    _, curve = fit_mlp(x, y, w, settings, settings.epochs, training_matrix(recipe, held_part, head))
    epochs = 1 + int(np.argmin(curve))
    model, _ = fit_mlp(*training_matrix(recipe, data, head), settings, epochs)
    return model, head, epochs


def out_of_fold(
    recipe: Recipe, train: Sequence[Prompt], embed: StoredVectors, settings: Settings
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Out-of-fold scores of the MLP and of the logistic head, fold by fold as ``cv``."""
    data, team = training_sets(recipe, train, embed)
    folds = np.array([fold_of(p) for p in train])
    mlp_scores = np.zeros(len(train))
    logistic = np.zeros(len(train))
    for fold in range(FOLDS):
        started = time.perf_counter()
        keep = np.flatnonzero(folds != fold)
        part = data.subset(keep)
        model, head, epochs = fit_fold(recipe, part.plus(team) if recipe.team else part, settings)
        for i in np.flatnonzero(folds == fold):
            rows = recipe.rows(data.rows[i], data.prompts[i].text)
            mlp_scores[i] = model.score_rows(rows)
            logistic[i] = head.score_rows(rows)
        took = time.perf_counter() - started
        print(f"  fold {fold}: {epochs} epochs, {took:.0f} s", flush=True)
    return mlp_scores, logistic


def at_equal_recall(
    name: str, prompts: Sequence[Prompt], scores: NDArray[np.float64], recall: float
) -> str:
    """One line at the lowest threshold whose pooled TPR is ≥ ``recall`` (the pooled 3 %
    rule spends nearly all its false alarms in English, whatever the head: es/pt benign
    score near 0): pooled FPR, English FPR, self-instruct and BIPIA FPR; then English alone,
    its threshold at 3 % English FPR: English TPR and the self-instruct FPR there."""
    labels = np.array([p.label for p in prompts])
    source = np.array([p.source for p in prompts])
    english = np.array([p.lang == "en" for p in prompts])
    attacks = np.sort(scores[labels == 1])
    threshold = attacks[int(np.floor((1.0 - recall) * len(attacks) + 1e-9))]
    fired = scores >= threshold
    benign = labels == 0

    def rate(mask: NDArray[np.bool_], over: NDArray[np.bool_] = fired) -> str:
        return f"{over[mask].mean():.3f}"

    en_threshold = threshold_for(scores[english & benign], 0.03)
    en_fired = scores >= en_threshold
    return (
        f"{name} at TPR {fired[labels == 1].mean():.3f}: FPR {rate(benign)} | "
        f"en FPR {rate(benign & english)} | self-instr FPR "
        f"{rate(benign & (source == 'self-instruct'))} | bipia FPR "
        f"{rate(benign & (source == 'bipia'))} || en alone at 3 % en FPR: en TPR "
        f"{rate(english & (labels == 1), en_fired)} | self-instr FPR "
        f"{rate(benign & (source == 'self-instruct'), en_fired)} | bipia TPR / FPR "
        f"{rate((labels == 1) & (source == 'bipia'), en_fired)} / "
        f"{rate(benign & (source == 'bipia'), en_fired)} | deepset TPR "
        f"{rate((labels == 1) & (source == 'deepset-pi'), en_fired)}"
    )


def _stored(name: str) -> NDArray[np.float64]:
    """Stored out-of-fold scores ``cv-{name}.npy``; ``a+b+c``: the mean of those runs'."""
    return np.mean([np.load(OUT / f"cv-{part}.npy") for part in name.split("+")], axis=0)


def report(names: list[str], recall: float, first: str | None) -> None:
    """The ``cv`` summary and the equal-recall line of stored out-of-fold scores; with
    ``first``, of the two-stage score too (``first``'s scores, these in ``BAND``)."""
    train = read_split("train")
    for name in names:
        scores = _stored(name)
        print(summary(name, train, scores))
        print(at_equal_recall(name, train, scores, recall), flush=True)
        if first:
            both = cascaded(_stored(first), scores, *BAND)
            label = f"{first} then {name} in {list(BAND)}"
            print(summary(label, train, both))
            print(at_equal_recall(label, train, both, recall), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", nargs="+", help="only report these stored cv-NAME.npy")
    parser.add_argument("--recall", type=float, default=0.922, help="TPR for --report")
    parser.add_argument("--first", help="with --report: the first stage's stored scores")
    parser.add_argument("--hidden", type=int, default=Settings.hidden)
    parser.add_argument("--decay", type=float, default=Settings.decay)
    parser.add_argument("--rate", type=float, default=Settings.rate)
    parser.add_argument("--epochs", type=int, default=Settings.epochs)
    parser.add_argument("--seed", type=int, default=Settings.seed)
    parser.add_argument("--recipe", default="use-e5", help="rows of this cv recipe (MIL, team)")
    args = parser.parse_args()
    if args.report:
        report(args.report, args.recall, args.first)
        return
    settings = Settings(args.hidden, args.decay, args.rate, args.epochs, args.seed)
    name = f"mlp{settings.hidden}-wd{settings.decay:g}-s{settings.seed}"
    if args.recipe != "use-e5":
        name = f"{args.recipe}-{name}"
    train = read_split("train")
    scores, logistic = out_of_fold(RECIPES[args.recipe], train, StoredVectors(), settings)
    OUT.mkdir(parents=True, exist_ok=True)
    np.save(OUT / f"cv-{name}.npy", scores)
    np.save(OUT / f"cv-{args.recipe}-same-folds.npy", logistic)
    print(summary(f"logistic {args.recipe} (same folds)", train, logistic))
    print(summary(name, train, scores), flush=True)


if __name__ == "__main__":
    main()
