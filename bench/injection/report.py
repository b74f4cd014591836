"""Figures of the injection detector on labelled prompts: AUC, TPR and FPR per slice."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from bench.injection.data import Prompt, read_team_train
from bench.injection.fitting import (
    BAND,
    SECOND,
    SHIPPED,
    Embed,
    TrainingSet,
    fit_recipe,
    threshold_for,
)
from bench.injection.views import Views
from numpy.typing import NDArray

from vigia.guardrails.injection import InjectionHead

Scores = NDArray[np.float64]
LANGUAGES = ("en", "es", "pt")


def roc_auc(pos: Scores, neg: Scores) -> float:
    """Probability that an attack outscores a benign prompt (ties count half)."""
    if not len(pos) or not len(neg):
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    values = np.concatenate([pos, neg])[order]
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def _rate(scores: Scores, threshold: float) -> str:
    if not len(scores):
        return "–"
    return f"{(scores >= threshold).mean():.3f} ({int((scores >= threshold).sum())}/{len(scores)})"


def slice_rows(
    prompts: Sequence[Prompt], scores: Scores, threshold: float
) -> list[tuple[str, str, str, str]]:
    """(slice, TPR, FPR, AUC) for all prompts, each language, each source and the subsets."""
    labels = np.array([p.label for p in prompts])
    langs = np.array([p.lang if p.lang in LANGUAGES else "other" for p in prompts])
    sources = np.array([p.source for p in prompts])
    kinds = np.array([p.kind for p in prompts])
    attacks, benign = labels == 1, labels == 0

    def row(name: str, mask: NDArray[np.bool_], auc_pos: Scores, auc_neg: Scores) -> None:
        auc = roc_auc(auc_pos, auc_neg)
        out.append(
            (
                name,
                _rate(scores[mask & attacks], threshold),
                _rate(scores[mask & benign], threshold),
                "–" if np.isnan(auc) else f"{auc:.4f}",
            )
        )

    out: list[tuple[str, str, str, str]] = []
    everything = np.ones(len(prompts), dtype=bool)
    row("all", everything, scores[attacks], scores[benign])
    for lang in (*LANGUAGES, "other"):
        mask = langs == lang
        row(f"lang {lang}", mask, scores[mask & attacks], scores[mask & benign])
    for source in sorted(set(sources)):
        mask = sources == source
        pos = scores[mask & attacks] if (mask & attacks).any() else scores[attacks]
        neg = scores[mask & benign] if (mask & benign).any() else scores[benign]
        row(f"source {source}", mask, pos, neg)
    trigger = kinds == "trigger-words"
    row("trigger words (XSTest safe)", trigger, scores[attacks], scores[trigger & benign])
    for lang in ("es", "pt"):
        questions = (kinds == "question") & (langs == lang)
        row(f"{lang} questions", questions, scores[attacks], scores[questions & benign])
    return out


def print_table(title: str, rows: list[tuple[str, str, str, str]]) -> None:
    print(f"\n{title}\n")
    print("| slice | TPR | FPR | AUC |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


def _two_stage(
    heads: tuple[InjectionHead, InjectionHead], prompt: Prompt, rows: NDArray[np.float32]
) -> float:
    """The score of the first head, or of the second inside ``BAND`` (full rows)."""
    found = heads[0].score_rows(SHIPPED.rows(rows, prompt.text))
    if BAND[0] <= found < BAND[1]:
        found = heads[1].score_rows(SECOND.rows(rows, prompt.text))
    return found


def leave_one_source_out(
    train: Sequence[Prompt], dev: Sequence[Prompt], embed: Embed
) -> list[tuple[str, str, str, str]]:
    """Each source left out of fitting: its train and dev prompts scored by the two stages
    fitted (the shipped recipes, team prompts included) on the other sources, at the threshold
    for 3 % FPR on the other sources' dev benign prompts. AUC: its attacks against those
    benign prompts (or its benign against all dev attacks)."""
    views = Views()
    data = TrainingSet.build(train, embed, views=views)
    dev_rows = TrainingSet.build(dev, embed, views=views).rows
    team = TrainingSet.build(read_team_train(), embed, views=views)
    out = []
    for source in sorted({p.source for p in train}):
        keep = np.array([i for i, p in enumerate(train) if p.source != source])
        fitted = data.subset(keep).plus(team)
        heads = (fit_recipe(SHIPPED, fitted), fit_recipe(SECOND, fitted))
        dev_scores = np.array([_two_stage(heads, p, r) for p, r in zip(dev, dev_rows, strict=True)])
        other_benign = np.array(
            [s for s, p in zip(dev_scores, dev, strict=True) if p.label == 0 and p.source != source]
        )
        threshold = threshold_for(other_benign, 0.03)
        held = list(zip([*train, *dev], [*data.rows, *dev_rows], strict=True))
        held = [(p, r) for p, r in held if p.source == source]
        scores = np.array([_two_stage(heads, p, r) for p, r in held])
        labels = np.array([p.label for p, _ in held])
        all_attacks = np.array([s for s, p in zip(dev_scores, dev, strict=True) if p.label == 1])
        pos, neg = scores[labels == 1], scores[labels == 0]
        auc = roc_auc(pos, other_benign) if len(pos) else roc_auc(all_attacks, neg)
        out.append(
            (f"without {source}", _rate(pos, threshold), _rate(neg, threshold), f"{auc:.4f}")
        )
    return out
