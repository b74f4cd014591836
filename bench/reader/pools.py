"""Reading pools of public reading-comprehension questions, gathered once per data dir.

For every question of a set: its USE vector, the lexical top ``LEXICAL`` and dense top
``DENSE`` passages of the set's knowledge base (ids in index order, each passage's retrieval
score), and, per passage, its sentences (as ``vigia.llm.reading.candidates`` splits them)
with their USE vectors (as ``vigia.llm.reading`` embeds them). Any smaller reading pool
(lexical top L + dense top D) is a slice of it. Stored in ``bench/.out/reader/``.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

LEXICAL = 16
DENSE = 10
SPLIT_SEED = 13
OUT = Path(__file__).resolve().parents[1] / ".out" / "reader"


def inner_halves(articles: list[str]) -> tuple[set[str], set[str]]:
    """The fitting articles in two halves (sorted, shuffled with ``SPLIT_SEED``)."""
    ordered = sorted(set(articles))
    random.Random(SPLIT_SEED).shuffle(ordered)
    half = len(ordered) // 2
    return set(ordered[:half]), set(ordered[half:])


def heldout_articles(articles: Iterable[str]) -> set[str]:
    """Half of the distinct ``articles`` (sorted, shuffled with ``SPLIT_SEED``): never
    fitted on when figures are called held out."""
    ordered = sorted(set(articles))
    random.Random(SPLIT_SEED).shuffle(ordered)
    return set(ordered[len(ordered) // 2 :])


@dataclass
class Pools:
    """One set's questions and the passages their pools draw on."""

    questions: list[dict[str, Any]]  # q, answers, article, lexical, dense, scores
    chunks: dict[str, dict[str, Any]]  # id -> text, sentences, rows (into vectors)
    queries: NDArray[np.float32]
    vectors: NDArray[np.float32]


def _paths(name: str) -> tuple[Path, Path, Path]:
    return OUT / f"{name}.json", OUT / f"{name}-queries.npy", OUT / f"{name}-sentences.npy"


def load_pools(name: str) -> Pools | None:
    """The stored pools of set ``name``, if gathered."""
    meta, queries, vectors = _paths(name)
    if not meta.exists():
        return None
    data = json.loads(meta.read_text(encoding="utf-8"))
    return Pools(data["questions"], data["chunks"], np.load(queries), np.load(vectors))


def gather(name: str, questions: list[dict[str, Any]], kb: Any) -> Pools:
    """Searches every question of ``questions`` in ``kb`` and stores the pools."""
    from vigia.db.session import session_scope
    from vigia.embeddings import TEXT_VECTORS, get_embedder
    from vigia.knowledge.retrieval import reading_pool
    from vigia.llm.reading import candidates, in_context

    embedder = get_embedder("use")
    chunks: dict[str, dict[str, Any]] = {}
    vectors: list[NDArray[np.float32]] = []
    rows: list[dict[str, Any]] = []
    queries = []
    started = time.perf_counter()
    with session_scope() as session:
        for i, item in enumerate(questions):
            lexical = reading_pool(session, [kb], item["q"], LEXICAL, 0)
            dense = reading_pool(session, [kb], item["q"], 0, DENSE)
            scores = {}
            for passage in lexical + dense:
                key = str(passage.chunk_id)
                scores[key] = passage.score
                if key in chunks:
                    continue
                texts = list(candidates([passage]).texts)
                contexts = [in_context(passage, t) for t in texts]
                found = TEXT_VECTORS.passages(embedder, contexts)
                chunks[key] = {
                    "text": passage.text,
                    "sentences": texts,
                    "rows": list(range(len(vectors), len(vectors) + len(texts))),
                }
                vectors.extend(found)
            queries.append(TEXT_VECTORS.queries(embedder, [item["q"]])[0])
            rows.append(
                item
                | {
                    "lexical": [str(p.chunk_id) for p in lexical],
                    "dense": [str(p.chunk_id) for p in dense],
                    "scores": scores,
                }
            )
            if i % 500 == 0:
                print(f"{name}: {i} questions gathered, {time.perf_counter() - started:.0f}s")
    pools = Pools(rows, chunks, np.stack(queries), np.stack(vectors).astype(np.float32))
    OUT.mkdir(parents=True, exist_ok=True)
    meta, query_path, vector_path = _paths(name)
    meta.write_text(json.dumps({"questions": rows, "chunks": chunks}), encoding="utf-8")
    np.save(query_path, pools.queries)
    np.save(vector_path, pools.vectors)
    return pools
