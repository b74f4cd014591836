"""Reading-pool sizes replayed on the stored pools (issue 13, fifth round).

    .venv/bin/python bench/pool_sizes.py --part inner [--pools "8,5;10,6;12,8;16,10"]
    .venv/bin/python bench/pool_sizes.py --part heldout
    .venv/bin/python bench/pool_sizes.py --part shipped

Reads the pools ``python -m training.answer_selector`` stored (``bench/.out/reader/``:
lexical top 16 and dense top 10 per question) and, for each pool (lexical L + dense D),
orders it by the selector's best sentence, keeps the top 5 and answers
(``bench.reader.fitting.read``, the replay of ``bench/knowledge_public.py``). Which selector
orders it:

- ``inner``: the 24 fitting articles of SQuAD-es dev, split 12 + 12 (``SPLIT_SEED``), each
  half read by a selector fitted on the other half (out of sample; where the size is chosen);
- ``heldout``: the 24 held-out articles and FaQuAD, read by the half fit (``--selector``,
  ``python -m training.answer_selector --write-heldout``);
- ``shipped``: all of SQuAD-es dev and FaQuAD, read by the shipped selector.

Per pool: recall@1/@5, MRR, the share whose pool holds an answer at all (the ceiling of
recall@5), the best sentence and the reply holding an answer, the share the answerer would
refuse on its own base (best relevance under 0.65), and the mean sentences per pool (the USE
vectors a cold question embeds). ``--top-k`` above 5 keeps more passages: recall at depths
5…top_k says how deep in the ordered pool the answering passage lies (replies then read
more passages). ``--order`` orders passages by another aggregate of their sentences'
probabilities (``ORDERS``: best, top 2 summed, noisy-or, sum), a diagnostic.
Nothing here writes into ``src/``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from bench.reader.fitting import Fit, best_sentence, holds, load_fit, pool_ids, read  # noqa: E402
from bench.reader.pools import Pools, heldout_articles, inner_halves  # noqa: E402
from training.answer_selector import L2, RULES, fitted, pools_of  # noqa: E402

from vigia.llm.answer_selector import SELECTOR_FILE  # noqa: E402
from vigia.llm.embedded import MIN_ANSWER_SCORE  # noqa: E402

TOP_K = 5
# How a passage's sentence probabilities make its place in the pool's order (--order): the
# product's is the best sentence; the others are diagnostics.
ORDERS: dict[str, Callable[[NDArray[np.float64]], float]] = {
    "best": best_sentence,
    "top2": lambda p: float(np.sort(p)[-2:].sum()),
    "noisy_or": lambda p: float(1.0 - np.prod(1.0 - p)),
    "sum": lambda p: float(p.sum()),
}


def figures(
    pools: Pools,
    indices: list[int],
    model: Fit,
    pool: tuple[int, int],
    top_k: int = TOP_K,
    order: str = "best",
) -> dict[str, Any]:
    """What reading ``indices`` from pools of size ``pool``, ordered by ``model``, gives
    (``top_k`` passages kept)."""
    ranks, best, reply, refused, ceiling, sentences = [], 0, 0, 0, 0, 0
    for i in indices:
        question = pools.questions[i]
        ids = pool_ids(question, *pool)
        ceiling += any(holds(pools.chunks[k]["text"], question["answers"]) for k in ids)
        sentences += sum(len(pools.chunks[k]["sentences"]) for k in ids)
        done = read(pools, i, lambda r: model(r.x), *pool, RULES, top_k, ORDERS[order])
        ranks.append(done.recall_rank)
        best += done.best_holds
        reply += done.reply_holds
        refused += done.relevance < MIN_ANSWER_SCORE
    n = len(indices)
    return {
        "pool": f"{pool[0]}+{pool[1]}",
        "order": order,
        "questions": n,
        "recall@1": round(sum(r == 1 for r in ranks) / n, 3),
        "top_k": top_k,
        "recall@5": round(sum(r is not None and r <= 5 for r in ranks) / n, 3),
        "recall_at_depth": [
            round(sum(r is not None and r <= k for r in ranks) / n, 3) for k in range(5, top_k + 1)
        ],
        "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
        "pool_holds": round(ceiling / n, 3),
        "best_sentence_holds": round(best / n, 3),
        "reply_holds": round(reply / n, 3),
        "refused_own_base": round(refused / n, 4),
        "sentences_per_pool": round(sentences / n, 1),
    }


def report(label: str, rows: list[dict[str, Any]]) -> None:
    """Prints one line per pool; several reads of one pool are pooled, weighted by size."""
    n = sum(r["questions"] for r in rows)
    merged = dict(rows[0]) | {"set": label, "questions": n}
    for key, value in rows[0].items():
        if isinstance(value, float):
            merged[key] = round(sum(r[key] * r["questions"] for r in rows) / n, 4)
        elif isinstance(value, list):
            columns = zip(*(r[key] for r in rows), strict=True)
            weights = [r["questions"] for r in rows]
            merged[key] = [
                round(sum(v * w for v, w in zip(c, weights, strict=True)) / n, 4) for c in columns
            ]
    print(json.dumps(merged), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--part", choices=["inner", "heldout", "shipped"], default="inner")
    parser.add_argument("--pools", default="8,5;10,6;12,8;16,10", help="lexical,dense; ...")
    parser.add_argument("--selector", default="bench/.out/reader-heldout.json")
    parser.add_argument("--top-k", type=int, default=TOP_K, help="passages kept (answered from)")
    parser.add_argument("--order", default="best", help="passage orders, comma-separated (ORDERS)")
    args = parser.parse_args()
    sizes = [(int(a), int(b)) for a, b in (p.split(",") for p in args.pools.split(";"))]
    squad = pools_of("squad_es", args.data_dir)
    articles = [q["article"] for q in squad.questions]
    held = heldout_articles(articles)
    runs: list[tuple[str, Pools, list[int], Fit]] = []
    if args.part == "inner":
        half_a, half_b = inner_halves([a for a in articles if a not in held])
        index_a = [i for i, a in enumerate(articles) if a in half_a]
        index_b = [i for i, a in enumerate(articles) if a in half_b]
        runs = [
            ("squad_es inner", squad, index_a, fitted(squad, index_b, L2)),
            ("squad_es inner", squad, index_b, fitted(squad, index_a, L2)),
        ]
    else:
        path = args.selector if args.part == "heldout" else str(SELECTOR_FILE)
        model = load_fit(path)
        faquad = pools_of("faquad_pt", args.data_dir)
        kept = [i for i, a in enumerate(articles) if a in held or args.part == "shipped"]
        name = "squad_es held-out" if args.part == "heldout" else "squad_es all"
        runs = [
            (name, squad, kept, model),
            ("faquad_pt", faquad, list(range(len(faquad.questions))), model),
        ]
    for pool in sizes:
        for order in args.order.split(","):
            started = time.perf_counter()
            by_set: dict[str, list[dict[str, Any]]] = {}
            for label, pools, indices, model in runs:
                found = figures(pools, indices, model, pool, args.top_k, order)
                by_set.setdefault(label, []).append(found)
            for label, rows in by_set.items():
                report(label, rows)
            print(f"pool {pool}, {order}: {time.perf_counter() - started:.0f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
