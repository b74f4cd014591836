"""Knowledge quality on public reading-comprehension sets (SQuAD-es dev, FaQuAD pt dev).

One knowledge base per set, each article a Markdown document (its paragraphs in order). For
every question: the rank of the first passage holding a gold answer (recall@1/@5, MRR) among
the passages an agent reads (``read_passages``, as the engine runs it); the embedded
answerer's reply, with citations built by the engine's ``CitationMap``; whether a gold
answer is in a cited snippet and in the reply; the reply's length; the time and CPU time per
question (retrieval + answer). Questions of one set asked of the other set's knowledge base
measure how often the answerer says it does not know (it should). Usage:

    .venv/bin/python bench/knowledge_public.py [--set squad_es|faquad_pt|both] [--limit N]
        [--data-dir DIR] [--embedder use|e5] [--seed 7] [--articles all|fit|heldout]
        [--selector FILE] [--pool L,D] [--timing N]

``--articles heldout`` keeps the SQuAD-es questions of the articles the answer-sentence
selector's held-out fit never saw (``bench/reader/pools.py``), ``fit`` the others;
``--selector FILE`` answers with that selector instead of the shipped one (a file written
by ``python -m training.answer_selector --write-heldout``).
``--pool L,D`` reads from the lexical top L and dense top D instead of the product's
``READ_LEXICAL`` / ``READ_DENSE``. ``--timing N``: after the run, N of the set's questions
are asked again, each first with an empty text-vector cache (cold: every sentence of its
pool embedded) then at once again (warm), and the reading pool's search alone is timed.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "knowledge"
SETS = {"squad_es": "squad_es_dev.jsonl", "faquad_pt": "faquad_pt_dev.jsonl"}


def load(name: str) -> tuple[dict[str, list[str]], list[dict[str, Any]]]:
    """Articles (title → paragraphs in order) and questions (text, gold answers, article)."""
    articles: dict[str, list[str]] = defaultdict(list)
    questions = []
    for line in (DATA / SETS[name]).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        articles[row["article"]].append(row["context"])
        for q in row["questions"]:
            answers = sorted({a["text"].strip() for a in q["answers"] if a["text"].strip()})
            questions.append({"q": q["question"], "answers": answers, "article": row["article"]})
    return articles, questions


def document(title: str, paragraphs: list[str]) -> bytes:
    return (f"# {title}\n\n" + "\n\n".join(paragraphs) + "\n").encode()


def file_name(title: str) -> str:
    safe = "".join(c if c.isalnum() or c in " -_" else "_" for c in title).strip()
    return (safe or "article")[:100] + ".md"


def on_articles(questions: list[dict[str, Any]], part: str) -> list[dict[str, Any]]:
    """The questions of the selector's held-out articles (``heldout``) or of the others."""
    import sys

    sys.path.insert(0, str(ROOT))
    from bench.reader.pools import heldout_articles

    held = heldout_articles(q["article"] for q in questions)
    return [q for q in questions if (q["article"] in held) == (part == "heldout")]


def ingest(
    session: Any, workspace: Any, name: str, articles: dict[str, list[str]], embedder: str
) -> Any:
    """A knowledge base named ``name`` holding each article as a Markdown document."""
    from vigia.knowledge import service

    kb = service.create_knowledge_base(session, workspace, name, embedder=embedder)
    started = time.perf_counter()
    chunks = 0
    for title, paragraphs in articles.items():
        upload = service.add_document(session, kb, file_name(title), document(title, paragraphs))
        chunks += upload.document.chunk_count
    print(
        f"{name}: {len(articles)} articles, {chunks} chunks, "
        f"ingest {time.perf_counter() - started:.1f}s"
    )
    return kb


def has(text: str, answers: list[str]) -> bool:
    """Whether a gold answer occurs in ``text`` (accents, case and spacing folded)."""
    from vigia.language import fold

    folded = fold(text)
    return any(fold(a) in folded for a in answers)


def answer(
    session: Any, kb: Any, question: str, top_k: int, no_answer: str
) -> tuple[list[Any], str, list[Any]]:
    """The passages read, the embedded answerer's cited reply and its citations, as the
    engine builds them (import after ``VIGIA_DATA_DIR`` is set)."""
    from vigia.engine.citations import CitationMap
    from vigia.knowledge.retrieval import read_passages
    from vigia.language import sentences
    from vigia.llm.embedded import compose
    from vigia.llm.protocol import ModelRequest

    passages = read_passages(session, [kb], question, top_k)
    reply = compose(
        ModelRequest(instructions="", message=question, passages=passages, no_answer=no_answer)
    )
    citations = CitationMap(passages)
    # Sentence by sentence, as the engine rewrites a reply while it streams.
    text = " ".join(citations.rewrite(s) for s in sentences(reply))
    return passages, text, citations.citations()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, "both"], default="both")
    parser.add_argument("--limit", type=int, default=0, help="questions per set (0: all)")
    parser.add_argument("--top-k", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--embedder", choices=["use", "e5"], default="use")
    parser.add_argument(
        "--data-dir", help="keep the ingested knowledge here and reuse it on the next run"
    )
    parser.add_argument("--articles", choices=["all", "fit", "heldout"], default="all")
    parser.add_argument("--selector", help="an answer selector JSON instead of the shipped one")
    parser.add_argument("--pool", help="lexical,dense: the reading pool instead of the product's")
    parser.add_argument("--timing", type=int, default=0, help="questions timed cold and warm")
    args = parser.parse_args()
    reuse = bool(args.data_dir) and Path(args.data_dir, "vigia.db").exists()
    os.environ["VIGIA_DATA_DIR"] = args.data_dir or tempfile.mkdtemp(prefix="vigia-kp-")

    from vigia.agents.schemas import Replies
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.knowledge import retrieval, service
    from vigia.knowledge.retrieval import reading_pool
    from vigia.workspaces.service import create_workspace, find_workspace

    if args.selector:
        from vigia.llm import answer_selector

        answer_selector.SELECTOR_FILE = Path(args.selector)
        answer_selector.selector.cache_clear()
        print(f"selector {answer_selector.selector().model} from {args.selector}")
    if args.pool:
        retrieval.READ_LEXICAL, retrieval.READ_DENSE = (int(n) for n in args.pool.split(","))
    print(f"reading pool: lexical {retrieval.READ_LEXICAL} + dense {retrieval.READ_DENSE}")
    upgrade()
    names = list(SETS) if args.set == "both" else [args.set]
    no_answer = Replies().no_answer
    kbs = {}
    data = {name: load(name) for name in SETS}
    with session_scope() as session:
        if reuse:
            workspace = find_workspace(session, "eval")
            kbs = {kb.name: kb for kb in service.list_knowledge_bases(session, workspace)}
    with session_scope() as session:
        names_to_ingest = [] if reuse else list(SETS)
        created = create_workspace(session, "eval") if names_to_ingest else None
        for name in names_to_ingest:
            assert created is not None
            kbs[name] = ingest(session, created, name, data[name][0], args.embedder)

    def ask(session: Any, kb: Any, question: str) -> tuple[list[Any], str, list[Any]]:
        return answer(session, kb, question, args.top_k, no_answer)

    def timed(session: Any, kb: Any, sample: list[dict[str, Any]]) -> dict[str, float]:
        """CPU ms per question, cold and warm, and the reading pool's search alone."""
        from vigia.embeddings import TEXT_VECTORS

        if not sample:
            return {}
        cold: list[float] = []
        warm: list[float] = []
        search: list[float] = []
        saved = TEXT_VECTORS._vectors
        for item in sample:
            TEXT_VECTORS._vectors = type(saved)(saved.capacity)
            for times in (cold, warm):
                c0 = time.process_time()
                ask(session, kb, item["q"])
                times.append((time.process_time() - c0) * 1000)
            t0 = time.perf_counter()
            pool = (retrieval.READ_LEXICAL, retrieval.READ_DENSE)
            reading_pool(session, [kb], item["q"], *pool)
            search.append((time.perf_counter() - t0) * 1000)
        TEXT_VECTORS._vectors = saved

        def at(values: list[float], share: float) -> float:
            return round(sorted(values)[int(share * (len(values) - 1))], 1)

        return {
            "timed": len(sample),
            "cold_cpu_ms_p50": at(cold, 0.5),
            "cold_cpu_ms_p95": at(cold, 0.95),
            "warm_cpu_ms_p50": at(warm, 0.5),
            "warm_cpu_ms_p95": at(warm, 0.95),
            "pool_search_ms_p50": at(search, 0.5),
            "pool_search_ms_p95": at(search, 0.95),
        }

    rng = random.Random(args.seed)
    timing_rng = random.Random(args.seed + 1)
    with session_scope() as session:
        for name in names:
            _, questions = data[name]
            if name == "squad_es" and args.articles != "all":
                questions = on_articles(questions, args.articles)
            if args.limit:
                questions = rng.sample(questions, min(args.limit, len(questions)))
            ranks, in_snippet, in_reply, lengths, latencies, cpu = [], 0, 0, [], [], []
            for item in questions:
                t0, c0 = time.perf_counter(), time.process_time()
                passages, text, cited = ask(session, kbs[name], item["q"])
                latencies.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
                rank = next(
                    (i for i, p in enumerate(passages, 1) if has(p.text, item["answers"])), None
                )
                ranks.append(rank)
                in_snippet += any(has(c.snippet, item["answers"]) for c in cited)
                in_reply += has(text, item["answers"])
                lengths.append(len(text))
            n = len(questions)
            other = next(o for o in SETS if o != name)
            wrong = rng.sample(questions, min(200, n))
            refused = sum(ask(session, kbs[other], q["q"])[1] == no_answer for q in wrong)
            timing = timed(session, kbs[name], timing_rng.sample(questions, min(args.timing, n)))
            print(
                json.dumps(
                    timing
                    | {
                        "set": name,
                        "questions": n,
                        "recall@1": round(sum(r == 1 for r in ranks) / n, 3),
                        "recall@5": round(sum(r is not None and r <= 5 for r in ranks) / n, 3),
                        "mrr": round(sum(1 / r for r in ranks if r) / n, 3),
                        "answer_in_cited_snippet": round(in_snippet / n, 3),
                        "answer_in_reply": round(in_reply / n, 3),
                        "reply_chars_median": statistics.median(lengths),
                        "reply_chars_p90": sorted(lengths)[int(0.9 * (n - 1))],
                        "no_answer_on_wrong_kb": round(refused / len(wrong), 3),
                        "ms_per_question_p50": round(statistics.median(latencies), 1),
                        "cpu_ms_per_question_p50": round(statistics.median(cpu), 1),
                        "cpu_ms_per_question_p95": round(sorted(cpu)[int(0.95 * (n - 1))], 1),
                        "load_average": round(os.getloadavg()[0], 1),
                    }
                )
            )


if __name__ == "__main__":
    main()
