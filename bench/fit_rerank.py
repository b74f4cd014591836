"""Re-ranking the answer-sentence selector's top k sentences with e5 (issue 13, fourth round).

    .venv/bin/python bench/fit_rerank.py --data-dir bench/.out/kp-use            # inner split
    .venv/bin/python bench/fit_rerank.py --data-dir bench/.out/kp-use --final --k 3 --columns 0,1

Reads the stored reading pools of ``bench/fit_reader.py`` (``bench/.out/reader/``, gathered
from ``--data-dir`` on its first run). The selector's scores a re-ranker learns from are
out of sample: the 24 fitting articles of SQuAD-es dev (``SPLIT_SEED``) are split into two
halves of 12, each read by a selector fitted on the other half. Without ``--final`` it fits
a re-ranker on one half, reports on the other (both ways) for each ``--k`` and feature set,
and prints the best sentence's and the reply's hit rates against the selector alone. With
``--final`` it fits the chosen re-ranker on all 24 fitting articles and reports once on the
24 held-out articles and on FaQuAD, both read by the selector fitted on the 24 fitting
articles (``bench/fit_reader.py --write-heldout``), never fitted on; ``--write FILE`` keeps
the re-ranker for ``bench/knowledge_public.py --rerank FILE``. Nothing here writes into
``src/``: the re-ranker was measured and not shipped (docs/benchmarks.md, issue 13).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import itertools
import json
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.fit_reader import RULES, fitted, pools_of  # noqa: E402
from bench.reader.fitting import Fit, Read, answer, read_rows, top_sentence  # noqa: E402
from bench.reader.pools import OUT, SPLIT_SEED, Pools, heldout_articles  # noqa: E402
from bench.reader.rerank import (  # noqa: E402
    FEATURES,
    E5Store,
    Reranker,
    Shortlist,
    fit_reranker,
    shortlist,
)

POOL = (8, 5)
L2 = 1e-2
K_MAX = 4


def inner_halves(articles: list[str]) -> tuple[set[str], set[str]]:
    """The fitting articles in two halves (sorted, shuffled with ``SPLIT_SEED``)."""
    ordered = sorted(set(articles))
    random.Random(SPLIT_SEED).shuffle(ordered)
    half = len(ordered) // 2
    return set(ordered[:half]), set(ordered[half:])


def reads(name: str, pools: Pools, indices: list[int], model: Fit) -> dict[int, Read]:
    """The read passages of ``indices`` under ``model`` (kept in ``bench/.out/reader/``)."""
    path = OUT / f"reads-{name}.pkl"
    if path.exists():
        stored: dict[int, Read] = pickle.loads(path.read_bytes())
        return stored
    started = time.perf_counter()
    done = {i: read_rows(pools, i, lambda r: model(r.x), *POOL) for i in indices}
    print(f"{name}: {len(done)} reads, {time.perf_counter() - started:.0f}s", file=sys.stderr)
    path.write_bytes(pickle.dumps(done))
    return done


def shortlists(pools: Pools, done: dict[int, Read], k: int, store: E5Store) -> dict[int, Shortlist]:
    return {i: shortlist(pools.questions[i], r, k, store, RULES) for i, r in done.items()}


def figures(
    pools: Pools, done: dict[int, Read], shorts: dict[int, Shortlist] | None, rr: Reranker | None
) -> dict[str, Any]:
    best = reply = 0
    for i, r in done.items():
        top = top_sentence(r.scores) if rr is None or shorts is None else rr.choose(shorts[i])
        reading = answer(r, pools.questions[i]["answers"], RULES, top)
        best += reading.best_holds
        reply += reading.reply_holds
    n = len(done)
    return {"questions": n, "best_holds": round(best / n, 3), "reply_holds": round(reply / n, 3)}


def top_holds(done: dict[int, Read], shorts: dict[int, Shortlist]) -> float:
    """Share of questions whose shortlist holds an answering sentence."""
    return round(sum(bool(shorts[i].labels.any()) for i in done) / len(done), 3)


def load_fit(path: str) -> Fit:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return Fit(np.asarray(data["weights"], dtype=np.float64), float(data["bias"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--k", default="2,3,4")
    parser.add_argument("--columns", default="1;0,1;0,1,2", help="feature sets, ';' apart")
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--target", default="sentence,reply", help="what a good candidate is")
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--selector", default="bench/.out/reader-heldout.json")
    parser.add_argument("--write", help="--final: write the re-ranker's weights here")
    args = parser.parse_args()
    squad = pools_of("squad_es", args.data_dir)
    articles = [q["article"] for q in squad.questions]
    held = heldout_articles(articles)
    half_a, half_b = inner_halves([a for a in articles if a not in held])
    index_a = [i for i, a in enumerate(articles) if a in half_a]
    index_b = [i for i, a in enumerate(articles) if a in half_b]
    store = E5Store()
    # Each half read by the selector fitted on the other half.
    oof_a = reads("inner-a", squad, index_a, fitted(squad, index_b, L2))
    oof_b = reads("inner-b", squad, index_b, fitted(squad, index_a, L2))
    ks = [int(k) for k in args.k.split(",")]
    targets = args.target.split(",")
    column_sets = [tuple(int(c) for c in s.split(",")) for s in args.columns.split(";")]
    if not args.final:
        for k in ks:
            short_a = shortlists(squad, oof_a, k, store)
            short_b = shortlists(squad, oof_b, k, store)
            store.save()
            for label, (train, shorts_t, test, shorts_v, done_v) in {
                "a->b": (oof_a, short_a, oof_b, short_b, oof_b),
                "b->a": (oof_b, short_b, oof_a, short_a, oof_a),
            }.items():
                del train, test
                base = figures(squad, done_v, None, None)
                print(json.dumps({"k": k, "fit->val": label, "scorer": "selector"} | base))
                print(
                    json.dumps(
                        {"k": k, "fit->val": label, "top_k_holds": top_holds(done_v, shorts_v)}
                    )
                )
                for columns, target in itertools.product(column_sets, targets):
                    rr = fit_reranker(list(shorts_t.values()), columns, args.l2, target)
                    found = figures(squad, done_v, shorts_v, rr)
                    names = "+".join(FEATURES[c] for c in columns) + f" ({target})"
                    weights = [round(float(w), 3) for w in rr.weights]
                    print(
                        json.dumps(
                            {"k": k, "fit->val": label, "scorer": names, "w": weights} | found
                        )
                    )
        print(f"e5 texts added {store.added}, {store.seconds:.0f}s CPU", file=sys.stderr)
        return
    (k,), (columns,) = ks, column_sets
    selector = load_fit(args.selector)
    faquad = pools_of("faquad_pt", args.data_dir)
    held_index = [i for i, a in enumerate(articles) if a in held]
    fitting = {**oof_a, **oof_b}
    (target,) = targets
    rr = fit_reranker(list(shortlists(squad, fitting, k, store).values()), columns, args.l2, target)
    for name, pools, done in (
        ("squad_es held-out", squad, reads("heldout", squad, held_index, selector)),
        (
            "faquad_pt",
            faquad,
            reads("faquad", faquad, list(range(len(faquad.questions))), selector),
        ),
    ):
        shorts = shortlists(pools, done, k, store)
        store.save()
        print(json.dumps({"set": name, "scorer": "selector"} | figures(pools, done, None, None)))
        found = figures(pools, done, shorts, rr)
        print(
            json.dumps(
                {"set": name, "scorer": f"rerank k={k}", "top_k_holds": top_holds(done, shorts)}
                | found
            )
        )
    if args.write:
        data = {"k": k, "features": [FEATURES[c] for c in columns], "weights": rr.weights.tolist()}
        Path(args.write).write_text(json.dumps(data), encoding="utf-8")


if __name__ == "__main__":
    main()
