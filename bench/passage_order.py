"""A learned passage order for reading, replayed on the stored pools (issue 13, sixth round).

    .venv/bin/python bench/passage_order.py --part inner --features "best,second;best,match"
    .venv/bin/python bench/passage_order.py --part inner --misses
    .venv/bin/python bench/passage_order.py --part heldout --reply --features best,match
    .venv/bin/python bench/passage_order.py --part shipped --reply --features best,match

The product orders a question's reading pool (lexical top 12 + dense top 8) by each
passage's best sentence probability under the answer selector. Here a small listwise
logistic (softmax over a question's pool passages, the answer-holding passages its
positives: ``bench.reader.fitting.listwise_weights``) scores each passage from a few
per-passage features (``FEATURES``): its best sentence's logit (and probability), the
second best's logit, the log-sum-exp of its sentence logits, its lexical and dense ranks
(log(1 + rank), an indicator when it is not on that side), its place in the pool, its
retrieval score (the 0–1 relevance the pool carries), its sentences' best cosine and IDF
overlap with the question, and its length (characters, sentences). ``--objective
pointwise`` fits a binary logistic per passage instead.

- ``inner``: the 24 fitting articles split 12 + 12; each half's sentence probabilities come
  from a selector fitted on the other half (as ``bench/pool_sizes.py``), and each half is
  ordered by an order fitted on the other half's rows (out of sample twice; where the
  features are chosen);
- ``heldout``: the order fitted on all inner rows (cross-fitted probabilities), read on the
  24 held-out articles and FaQuAD with the half-fit selector (``--selector``);
- ``shipped``: the same order, all of SQuAD-es dev and FaQuAD with the shipped selector.

Per set: recall@1/@5 and MRR of the ordered pool, the pool's ceiling; with ``--reply``
also the best sentence and the reply of the top 5 holding an answer (``answer``). The
per-passage ingredients are kept in ``bench/.out/order-<part>.pkl``. ``--misses``: for the
questions whose pool holds an answer but whose best-sentence top 5 does not, where the
answering passage lies and its best sentence probability against the fifth passage's.
The weights fitted on all inner rows are printed (stderr). Nothing here writes into ``src/``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.fit_reader import L2, RULES, fitted, pools_of  # noqa: E402
from bench.fit_rerank import inner_halves, load_fit  # noqa: E402
from bench.reader.fitting import (  # noqa: E402
    COSINE,
    OVERLAP_IDF,
    Fit,
    Read,
    answer,
    holds,
    listwise_weights,
    pool_ids,
    rows_for,
)
from bench.reader.pools import OUT, Pools, heldout_articles  # noqa: E402

from vigia.kit.logistic import fit_binary  # noqa: E402
from vigia.llm.answer_selector import SELECTOR_FILE  # noqa: E402

POOL = (12, 8)
TOP_K = 5
EPS = 1e-6


@dataclass
class Passages:
    """One question's pool passages (pool order) and what their features are made of."""

    ids: list[str]
    probabilities: list[NDArray[np.float64]]  # each passage's sentence probabilities
    lexical: list[int]  # 1-based rank on the lexical side, 0 if not there
    dense: list[int]  # 1-based rank on the dense side, 0 if not there
    scores: list[float]  # the pool's 0–1 relevance
    chars: list[int]
    labels: NDArray[np.bool_]  # the passage holds an answer
    matches: list[list[float]]  # its sentences' best cosine and IDF overlap with the question


def logit(p: float) -> float:
    p = min(max(p, EPS), 1 - EPS)
    return float(np.log(p / (1 - p)))


def _second(p: NDArray[np.float64]) -> float:
    return logit(float(np.sort(p)[-2])) if len(p) > 1 else logit(EPS)


# name -> columns of one passage (n = its 0-based place in the pool).
FEATURES: dict[str, Any] = {
    "best": lambda ps, n: [logit(float(ps.probabilities[n].max()))],
    "p_best": lambda ps, n: [float(ps.probabilities[n].max())],
    "second": lambda ps, n: [_second(ps.probabilities[n])],
    "lexical": lambda ps, n: [np.log1p(ps.lexical[n]), float(ps.lexical[n] == 0)],
    "dense": lambda ps, n: [np.log1p(ps.dense[n]), float(ps.dense[n] == 0)],
    "place": lambda ps, n: [np.log1p(n)],
    "score": lambda ps, n: [ps.scores[n]],
    "match": lambda ps, n: ps.matches[n],
    "lse": lambda ps, n: [
        float(np.log(np.exp([logit(float(v)) for v in ps.probabilities[n]]).sum()))
    ],
    "length": lambda ps, n: [np.log(1 + ps.chars[n]), np.log(len(ps.probabilities[n]))],
}


def passages_of(pools: Pools, index: int, model: Fit) -> Passages:
    question = pools.questions[index]
    ids = pool_ids(question, *POOL)
    rows = rows_for(pools, index, ids)
    p = model(rows.x)
    lexical, dense = question["lexical"][: POOL[0]], question["dense"][: POOL[1]]
    texts = [pools.chunks[k]["text"] for k in ids]
    return Passages(
        ids,
        [p[rows.passages == n] for n in range(len(ids))],
        [lexical.index(k) + 1 if k in lexical else 0 for k in ids],
        [dense.index(k) + 1 if k in dense else 0 for k in ids],
        [float(question["scores"][k]) for k in ids],
        [len(t) for t in texts],
        np.array([holds(t, question["answers"]) for t in texts], dtype=bool),
        [
            rows.x[rows.passages == n][:, [COSINE, OVERLAP_IDF]].max(axis=0).tolist()
            if (rows.passages == n).any()
            else [0.0, 0.0]
            for n in range(len(ids))
        ],
    )


def matrix(ps: Passages, names: list[str]) -> NDArray[np.float64]:
    kept = [n for n in range(len(ps.ids)) if len(ps.probabilities[n])]
    return np.array(
        [[v for name in names for v in FEATURES[name](ps, n)] for n in kept], dtype=np.float64
    )


def kept_labels(ps: Passages) -> NDArray[np.bool_]:
    return np.array([ps.labels[n] for n in range(len(ps.ids)) if len(ps.probabilities[n])])


def fit_order(
    data: list[Passages], names: list[str], l2: float, objective: str = "listwise"
) -> NDArray[np.float64]:
    """Weights over ``names`` (on raw columns; standardised inside): listwise (softmax over
    each question's pool) or pointwise (a binary logistic per passage, each question
    weighing the same)."""
    x = np.vstack([matrix(ps, names) for ps in data])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    labels = [kept_labels(ps) for ps in data]
    if objective == "pointwise":
        y = np.concatenate(labels).astype(np.float64)
        rows = np.concatenate([np.full(len(v), 1.0 / len(v)) for v in labels])
        w, _ = fit_binary((x - mean) / scale, y, l2, rows * len(labels) / len(y))
    else:
        w = listwise_weights((x - mean) / scale, labels, l2)
    return np.asarray(w / scale, dtype=np.float64)


def order(ps: Passages, names: list[str], weights: NDArray[np.float64] | None) -> list[str]:
    """The pool's ids best first: by ``weights`` or (None) by the best sentence."""
    kept = [n for n in range(len(ps.ids)) if len(ps.probabilities[n])]
    if weights is None:
        s = [float(ps.probabilities[n].max()) for n in kept]
    else:
        s = (matrix(ps, names) @ weights).tolist()
    ranked = sorted(range(len(kept)), key=lambda i: (-s[i], kept[i]))
    return [ps.ids[kept[i]] for i in ranked]


def figures(
    runs: list[tuple[Pools, list[int], list[Passages], NDArray[np.float64] | None, Fit]],
    names: list[str],
    reply: bool,
) -> dict[str, Any]:
    ranks: list[int | None] = []
    ceiling = best = replied = 0
    for pools, indices, data, weights, model in runs:
        for i, ps in zip(indices, data, strict=True):
            ids = order(ps, names, weights)[:TOP_K]
            labels = dict(zip(ps.ids, ps.labels, strict=True))
            ranks.append(next((r for r, k in enumerate(ids, 1) if labels[k]), None))
            ceiling += bool(ps.labels.any())
            if reply:
                rows = rows_for(pools, i, ids)
                done = answer(
                    Read(ranks[-1], rows, model(rows.x)), pools.questions[i]["answers"], RULES
                )
                best += done.best_holds
                replied += done.reply_holds
    n = len(ranks)
    found: dict[str, Any] = {
        "order": ",".join(names) if names else "best sentence",
        "questions": n,
        "recall@1": round(sum(r == 1 for r in ranks) / n, 4),
        "recall@5": round(sum(r is not None for r in ranks) / n, 4),
        "mrr": round(sum(1 / r for r in ranks if r) / n, 4),
        "pool_holds": round(ceiling / n, 4),
    }
    if reply:
        found |= {"best_sentence_holds": round(best / n, 4), "reply_holds": round(replied / n, 4)}
    return found


def misses(data: list[Passages]) -> None:
    """Prints where the answering passage lies when the best-sentence top 5 misses it."""
    ranks, own, fifth = [], [], []
    for ps in data:
        ids = order(ps, [], None)
        labels = dict(zip(ps.ids, ps.labels, strict=True))
        rank = next((r for r, k in enumerate(ids, 1) if labels[k]), None)
        if rank is None or rank <= TOP_K:
            continue
        ranks.append(rank)
        best = [float(p.max()) for p in ps.probabilities if len(p)]
        answering = [p for p, y in zip(ps.probabilities, ps.labels, strict=True) if y and len(p)]
        own.append(max(float(p.max()) for p in answering))
        fifth.append(sorted(best, reverse=True)[TOP_K - 1])
    print(
        json.dumps(
            {
                "questions": len(data),
                "missed_in_pool": len(ranks),
                "rank_counts": {r: ranks.count(r) for r in sorted(set(ranks))},
                "answering_best_p50": round(float(np.median(own)), 3),
                "fifth_best_p50": round(float(np.median(fifth)), 3),
                "answering_best_under_0.1": round(float(np.mean(np.array(own) < 0.1)), 3),
            }
        )
    )


def ingredients(part: str, data_dir: str | None, selector: str) -> list[tuple[str, Any]]:
    """Per set of ``part``: (label, [(pools, indices, passages, selector)] per read)."""
    path = OUT.parent / f"order-{part}.pkl"
    squad = pools_of("squad_es", data_dir)
    articles = [q["article"] for q in squad.questions]
    held = heldout_articles(articles)
    sets: list[tuple[str, list[tuple[Pools, list[int], Fit]]]]
    if part == "inner":
        half_a, half_b = inner_halves([a for a in articles if a not in held])
        index_a = [i for i, a in enumerate(articles) if a in half_a]
        index_b = [i for i, a in enumerate(articles) if a in half_b]
        sets = [
            ("squad_es inner", [(squad, index_a, fitted(squad, index_b, L2))]),
            ("squad_es inner", [(squad, index_b, fitted(squad, index_a, L2))]),
        ]
    else:
        model = load_fit(selector if part == "heldout" else str(SELECTOR_FILE))
        faquad = pools_of("faquad_pt", data_dir)
        kept = [i for i, a in enumerate(articles) if a in held or part == "shipped"]
        name = "squad_es held-out" if part == "heldout" else "squad_es all"
        sets = [
            (name, [(squad, kept, model)]),
            ("faquad_pt", [(faquad, list(range(len(faquad.questions))), model)]),
        ]
    if path.exists():
        stored: list[list[Passages]] = pickle.loads(path.read_bytes())
    else:
        started = time.perf_counter()
        stored = [[passages_of(p, i, m) for i in ix] for _, runs in sets for p, ix, m in runs]
        path.write_bytes(pickle.dumps(stored))
        print(f"{part}: ingredients in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return [
        (label, (p, ix, data, m))
        for (label, runs), data in zip(sets, stored, strict=True)
        for p, ix, m in runs
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--part", choices=["inner", "heldout", "shipped"], default="inner")
    parser.add_argument("--features", default="best;best,second;best,lexical,dense")
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--objective", choices=["listwise", "pointwise"], default="listwise")
    parser.add_argument("--selector", default="bench/.out/reader-heldout.json")
    parser.add_argument("--reply", action="store_true", help="also answer from the top 5")
    parser.add_argument("--misses", action="store_true", help="where best-sentence misses lie")
    args = parser.parse_args()
    found = ingredients(args.part, args.data_dir, args.selector)
    if args.misses:
        misses([ps for _, (_, _, data, _) in found for ps in data])
        return
    inner = found if args.part == "inner" else ingredients("inner", args.data_dir, "")
    for spec in ["", *args.features.split(";")] if args.features else [""]:
        names = [n for n in spec.split(",") if n]
        runs: dict[str, list[Any]] = {}
        whole = [ps for _, (_, _, data, _) in inner for ps in data]
        on_inner = fit_order(whole, names, args.l2, args.objective) if names else None
        weights = on_inner
        for k, (label, (pools, indices, data, model)) in enumerate(found):
            if names and args.part == "inner":
                other = [ps for j, (_, r) in enumerate(found) if j != k for ps in r[2]]
                weights = fit_order(other, names, args.l2, args.objective)
            runs.setdefault(label, []).append((pools, indices, data, weights, model))
        for label, rows in runs.items():
            print(json.dumps(figures(rows, names, args.reply) | {"set": label}), flush=True)
        if on_inner is not None:
            print(f"weights {names}: {np.round(on_inner, 4).tolist()}", file=sys.stderr)


if __name__ == "__main__":
    main()
