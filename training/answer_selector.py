"""The one writer of the answer-sentence selector, ``src/vigia/llm/data/answer_selector.json``.

    .venv/bin/python -m training.answer_selector --data-dir bench/.out/kp-use [--heldout]

``--data-dir`` is the knowledge ``bench/knowledge_public.py --data-dir`` ingested (SQuAD-es dev
and FaQuAD as one knowledge base each). The first run searches every question there and
stores the reading pools in ``bench/.out/reader/`` (``bench/reader/pools.py``).

``--heldout``: fits on half of SQuAD-es dev's 48 articles (seed 13) and reports on the other
half and on FaQuAD (never fitted on), against the hand-set score it replaces. Otherwise fits
on all SQuAD-es articles and writes the file (``--dry-run``: prints only). ``--write-heldout
FILE`` writes the half fit (never a shipped file), for ``bench/knowledge_public.py --selector
FILE --articles heldout``. The same inputs give the same file: L-BFGS from zeros, fixed
iterations. Feature rows, pools and the fit are shared with the measurements
(``bench/reader/``); the manifest (``training/manifest.json``) records the inputs and the
expected digest of the output.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.knowledge_public import load
from bench.reader.fitting import Fit, Reading, Rows, fit, hand_set, pool_ids, read, rows_for
from bench.reader.pools import Pools, gather, heldout_articles, load_pools

from vigia.llm.answer_selector import MODEL_ID, SELECTOR_FILE
from vigia.llm.embedded import FOLLOW_RATIO, OTHER_PASSAGE_RATIO
from vigia.llm.sentence_features import FEATURE_NAMES

MODEL = MODEL_ID
L2 = 1e-2
POOL = (8, 5)
RULES = (FOLLOW_RATIO, OTHER_PASSAGE_RATIO)


def pools_of(name: str, data_dir: str | None) -> Pools:
    stored = load_pools(name)
    if stored is not None:
        return stored
    if not data_dir or not Path(data_dir, "vigia.db").exists():
        sys.exit("no stored pools: pass --data-dir of a bench/knowledge_public.py run")
    os.environ["VIGIA_DATA_DIR"] = data_dir
    from vigia.db.session import session_scope
    from vigia.knowledge import service
    from vigia.workspaces.service import find_workspace

    with session_scope() as session:
        workspace = find_workspace(session, "eval")
        kb = next(k for k in service.list_knowledge_bases(session, workspace) if k.name == name)
    return gather(name, load(name)[1], kb)


def figures(
    pools: Pools, indices: list[int], scorer: Any, pool: tuple[int, int] = POOL
) -> dict[str, float]:
    readings: list[Reading] = [read(pools, i, scorer, *pool, RULES) for i in indices]
    n = len(readings)
    return {
        "questions": n,
        "recall@1": round(sum(r.recall_rank == 1 for r in readings) / n, 3),
        "recall@5": round(sum(r.recall_rank is not None for r in readings) / n, 3),
        "best_sentence_holds": round(sum(r.best_holds for r in readings) / n, 3),
        "reply_holds": round(sum(r.reply_holds for r in readings) / n, 3),
        "reply_chars_median": statistics.median(r.reply_chars for r in readings),
    }


def fitted(pools: Pools, indices: list[int], l2: float) -> Fit:
    started = time.perf_counter()
    rows: list[Rows] = [rows_for(pools, i, pool_ids(pools.questions[i], *POOL)) for i in indices]
    print(f"rows of {len(rows)} questions: {time.perf_counter() - started:.0f}s", file=sys.stderr)
    model = fit(rows, l2)
    print(f"fitted: {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return model


def selector_json(model: Fit, notes: dict[str, Any]) -> dict[str, Any]:
    return {
        "model": MODEL,
        "encoder": "use-m3 (message; sentence after its heading), vigia.llm.sentence_features",
        "l2": L2,
        "pool": {"lexical": POOL[0], "dense": POOL[1]},
        "notes": notes,
        "bias": round(model.bias, 6),
        "features": list(FEATURE_NAMES),
        "weights": [round(float(w), 6) + 0.0 for w in model.weights],  # no "-0.0"
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir")
    parser.add_argument("--heldout", action="store_true")
    parser.add_argument("--write-heldout", help="write the half fit here")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--pool", default="8,5", help="lexical,dense pool read (figures only)")
    args = parser.parse_args()
    squad = pools_of("squad_es", args.data_dir)
    faquad = pools_of("faquad_pt", args.data_dir)
    held = heldout_articles(q["article"] for q in squad.questions)
    fit_on = [i for i, q in enumerate(squad.questions) if q["article"] not in held]
    held_out = [i for i, q in enumerate(squad.questions) if q["article"] in held]
    if args.heldout or args.write_heldout:
        model = fitted(squad, fit_on, args.l2)
        if args.write_heldout:
            notes = {"fitted_on": f"SQuAD-es dev, {len(fit_on)} questions of 24 articles"}
            text = json.dumps(selector_json(model, notes))
            Path(args.write_heldout).write_text(text, encoding="utf-8")
        everything = list(range(len(faquad.questions)))
        pool = tuple(int(n) for n in args.pool.split(","))
        scorers = (("hand-set", hand_set), ("selector", lambda r: model(r.x)))
        for label, scorer in scorers[1:] if args.pool != "8,5" else scorers:
            for name, pools, indices in (
                ("squad_es held-out", squad, held_out),
                ("faquad_pt", faquad, everything),
            ):
                found = figures(pools, indices, scorer, (pool[0], pool[1]))
                print(json.dumps({"scorer": label, "set": name, "pool": args.pool} | found))
        return
    everyone = list(range(len(squad.questions)))
    model = fitted(squad, everyone, args.l2)
    notes = {
        "fitted_on": f"SQuAD-es v1.1 dev (machine-translated), all {len(squad.questions)} "
        "questions of its 48 articles; positives: sentences holding a gold answer",
        "heldout_figures": "docs/benchmarks.md, Knowledge on public reading-comprehension data",
    }
    text = json.dumps(selector_json(model, notes), indent=1) + "\n"
    if args.dry_run:
        print(text[:2000])
        return
    SELECTOR_FILE.parent.mkdir(parents=True, exist_ok=True)
    SELECTOR_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {SELECTOR_FILE} ({MODEL}, {len(text)} bytes)")


if __name__ == "__main__":
    main()
