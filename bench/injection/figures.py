"""The injection part of ``bench/guardrails_eval.py``: the shipped head on held-out prompts.

- ``dev.jsonl`` (thresholds were chosen on it, nothing was fitted on it): TPR, FPR and AUC
  at the ``medium`` threshold, overall, per language, per source, on the trigger-word
  (XSTest safe) prompts and on the Spanish and Portuguese questions;
- the sensitivities' operating points on dev;
- XSTest's unsafe prompts (harmful requests, not injections): the share flagged;
- the benign customer-like prompts held out of fitting (``benign.py``): the share flagged;
- the team's held-out prompts (``bench/data/guardrails/injection_eval.txt``, 332; the head
  is fitted on the other team file, ``injection_team_train.txt``, never on this one);
- with ``loso``: each source left out of fitting (``report.leave_one_source_out``).

Scores are the product's two-stage scores (``cascade.product_scores``); vectors come from
``bench/.out`` (the same encoders and texts as the product).
"""

from __future__ import annotations

import collections
from pathlib import Path

import numpy as np
from bench.injection.benign import read_benign
from bench.injection.cascade import product_scores
from bench.injection.data import Prompt, StoredVectors, read_split, read_unsafe
from bench.injection.report import leave_one_source_out, print_table, roc_auc, slice_rows
from bench.injection.views import Views

from vigia.guardrails.injection import InjectionHead, get_head

TEAM_DATA = Path(__file__).resolve().parents[1] / "data" / "guardrails"
TEAM_HELD_OUT = "injection_eval.txt"


def read_team_set() -> list[Prompt]:
    """The team's held-out prompts (``label<TAB>lang<TAB>text``; ``#`` lines are comments):
    customer messages with trigger words and attacks in es/pt/en, never fitted on."""
    out = []
    for line in (TEAM_DATA / TEAM_HELD_OUT).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            label, lang, text = line.split("\t", 2)
            out.append(Prompt(text, int(label), lang, "team", "team", ""))
    return out


def report(loso: bool = False, head: InjectionHead | None = None) -> None:
    """The tables above for ``head`` (default: the packaged one)."""
    head = head or get_head()
    embed, views = StoredVectors(), Views()
    dev = read_split("dev")
    scores = product_scores(head, dev, embed, views)
    medium = head.thresholds["medium"]
    labels = np.array([p.label for p in dev])
    print(f"## injection: {head.model} on dev.jsonl ({len(dev)} prompts, {labels.sum()} attacks)")
    print_table(f"At the medium threshold {medium}:", slice_rows(dev, scores, medium))
    print("\nSensitivities (threshold: dev TPR / FPR):")
    for name, threshold in head.thresholds.items():
        tpr = (scores[labels == 1] >= threshold).mean()
        fpr = (scores[labels == 0] >= threshold).mean()
        print(f"- {name}: {threshold} → TPR {tpr:.3f}, FPR {fpr:.3f}")
    unsafe = read_unsafe()
    flagged = product_scores(head, unsafe, embed, views) >= medium
    print(f"\nXSTest unsafe (harmful, not injections): {flagged.mean():.3f} flagged")
    _, held = read_benign()
    held_fired = product_scores(head, held, embed, views) >= medium
    counts = collections.Counter(
        f"{p.source}-{p.lang}" for p, f in zip(held, held_fired, strict=True) if f
    )
    print(
        f"\nBenign customer-like prompts held out of fitting (benign.py): "
        f"{int(held_fired.sum())} of {len(held)} flagged {dict(sorted(counts.items()))}"
    )
    team = read_team_set()
    team_scores = product_scores(head, team, embed, views)
    print_table(
        f"Team-written prompts, held out ({TEAM_HELD_OUT}):",
        slice_rows(team, team_scores, medium),
    )
    team_labels = np.array([p.label for p in team])
    auc = roc_auc(team_scores[team_labels == 1], team_scores[team_labels == 0])
    print(f"team set AUC {auc:.4f}")
    if loso:
        rows = leave_one_source_out(read_split("train"), dev, embed)
        print_table("Leave one source out (fitted without it; 3 % FPR on the others):", rows)
