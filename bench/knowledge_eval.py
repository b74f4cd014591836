"""Retrieval and grounded-answer quality on the Spanish set in bench/data/knowledge/.

Ingests the documents into a fresh knowledge base (in a temporary data directory) and, for
each question, finds the rank of the first passage that contains the expected answer text,
for lexical (FTS5 BM25), dense (cosine) and hybrid (reciprocal-rank fusion) search, and for
what an agent reads ("read": lexical top 8 + dense top 5 ordered by best sentence). Then it lets the
embedded answerer compose an answer from the passages read and checks that every
``[n]`` it cites points at a passage that contains the answer; unanswerable questions must
get the no-answer reply. Usage:

    .venv/bin/python bench/knowledge_eval.py [--embedder use|e5] [--top-k 5] [--verbose]
"""

from __future__ import annotations

import os

# One BLAS thread: with OpenBLAS's default (one per core) a busy 2-core machine makes each
# small product wait on its peer thread (USE queries went from ~5 ms to ~270 ms at p95).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Literal

DATA = Path(__file__).parent / "data" / "knowledge"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["use", "e5"], default="use")
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    os.environ["VIGIA_DATA_DIR"] = tempfile.mkdtemp(prefix="vigia-eval-")
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    from vigia.agents.schemas import Replies
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.knowledge import service
    from vigia.knowledge.retrieval import read_passages, search_knowledge
    from vigia.language import fold
    from vigia.llm.embedded import compose
    from vigia.llm.protocol import ModelRequest
    from vigia.search.protocol import Mode
    from vigia.workspaces.service import create_workspace

    upgrade()
    spec = json.loads((DATA / "questions.json").read_text())
    with session_scope() as session:
        workspace = create_workspace(session, "eval")
        kb = service.create_knowledge_base(session, workspace, "eval", embedder=args.embedder)
        started = time.perf_counter()
        chunks = 0
        for path in sorted((DATA / "docs").iterdir()):
            chunks += service.add_document(
                session, kb, path.name, path.read_bytes()
            ).document.chunk_count
        ingest_s = time.perf_counter() - started
    print(
        f"embedder={args.embedder} documents={len(list((DATA / 'docs').iterdir()))} "
        f"chunks={chunks} questions={len(spec['questions'])} ingest={ingest_s:.2f}s"
    )

    def contains(text: str, answer: str) -> bool:
        return fold(answer) in fold(text)

    replies = Replies()
    results: dict[Mode | Literal["read"], list[int | None]] = {
        "lexical": [],
        "dense": [],
        "hybrid": [],
        "read": [],
    }
    grounded = 0
    latencies: list[float] = []
    with session_scope() as session:
        for item in spec["questions"]:
            for mode in results:
                t0 = time.perf_counter()
                passages = (
                    read_passages(session, [kb], item["q"], args.top_k)
                    if mode == "read"
                    else search_knowledge(session, [kb], item["q"], args.top_k, mode)
                )
                if mode == "hybrid":
                    latencies.append((time.perf_counter() - t0) * 1000)
                rank = next(
                    (
                        i
                        for i, p in enumerate(passages, 1)
                        if p.document == item["doc"] and contains(p.text, item["answer"])
                    ),
                    None,
                )
                results[mode].append(rank)
            answer = compose(
                ModelRequest(
                    instructions="",
                    message=item["q"],
                    passages=passages,
                    no_answer=replies.no_answer,
                )
            )
            cited = [int(n) for n in re.findall(r"\[(\d+)\]", answer)]
            ok = bool(cited) and all(
                1 <= n <= len(passages) and contains(passages[n - 1].text, item["answer"])
                for n in cited
            )
            grounded += ok
            if args.verbose and (not ok or results["read"][-1] != 1):
                print(f"- {item['q']}\n  read rank={results['read'][-1]} answer={answer!r}")
        refused = 0
        for question in spec["unanswerable"]:
            passages = read_passages(session, [kb], question, args.top_k)
            answer = compose(
                ModelRequest(
                    instructions="",
                    message=question,
                    passages=passages,
                    no_answer=replies.no_answer,
                )
            )
            refused += answer == replies.no_answer
            if args.verbose and answer != replies.no_answer:
                print(f"- (unanswerable) {question}\n  answer={answer!r}")

    n = len(spec["questions"])
    print(f"{'mode':8} {'recall@1':>9} {'recall@5':>9} {'MRR':>7}")
    for mode, ranks in results.items():
        r1 = sum(1 for r in ranks if r == 1) / n
        r5 = sum(1 for r in ranks if r is not None and r <= 5) / n
        mrr = sum(1 / r for r in ranks if r is not None) / n
        print(f"{mode:8} {r1:9.3f} {r5:9.3f} {mrr:7.3f}")
    latencies.sort()
    print(
        "grounded answers (every citation contains the answer): "
        f"{grounded}/{n} = {grounded / n:.3f}"
    )
    print(f"no-answer on unanswerable questions: {refused}/{len(spec['unanswerable'])}")
    print(f"hybrid search incl. query embedding: p50 {latencies[len(latencies) // 2]:.1f} ms")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
