"""Re-ranking the selector's top sentences with e5: vectors, features, fit and figures.

For a question read under a selector (``bench.reader.fitting.read_rows``), the selector's
top ``k`` sentences (ties in reading order) are compared with the question in
multilingual-e5-small's space (question as ``query:``, sentence as ``passage:``); a few
features per candidate (the selector's logit, the e5 cosine, the candidate's rank under the
selector) are weighed listwise (softmax over the ``k``; no intercept, it cancels) and the
best candidate becomes the answering sentence. The e5 vectors of the texts seen are kept in
``bench/.out/reader/e5.npz``, keyed by side and a hash of the text.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from bench.reader.fitting import Read, answer, listwise_weights
from bench.reader.pools import OUT
from numpy.typing import NDArray

STORE = OUT / "e5.npz"
FEATURES = ("logit", "cosine", "rank")


def _key(side: str, text: str) -> str:
    return side + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class E5Store:
    """e5 vectors of questions and sentences, computed once and kept on disk."""

    def __init__(self) -> None:
        self._vectors: dict[str, NDArray[np.float32]] = {}
        if STORE.exists():
            data = np.load(STORE)
            self._vectors = dict(zip(data["keys"].tolist(), data["vectors"], strict=True))
        self.added = 0
        self.seconds = 0.0

    def vectors(self, side: str, texts: Sequence[str]) -> NDArray[np.float32]:
        """One row per text (``side``: ``query`` or ``passage``)."""
        keys = [_key(side, t) for t in texts]
        missing = [(k, t) for k, t in zip(keys, texts, strict=True) if k not in self._vectors]
        if missing:
            from vigia.embeddings import get_embedder

            embedder = get_embedder("e5")
            encode = embedder.queries if side == "query" else embedder.passages
            started = time.process_time()
            for k, t in missing:
                self._vectors[k] = encode([t])[0]
            self.seconds += time.process_time() - started
            self.added += len(missing)
            if self.added % 500 < len(missing):
                print(f"e5: {self.added} texts, {self.seconds:.0f}s CPU", file=sys.stderr)
        return np.stack([self._vectors[k] for k in keys])

    def save(self) -> None:
        if self.added:
            keys = sorted(self._vectors)
            vectors = np.stack([self._vectors[k] for k in keys])
            np.savez(STORE, keys=np.array(keys), vectors=vectors)


def top_k(scores: NDArray[np.float64], k: int) -> list[int]:
    """The rows of the ``k`` best scores, best first (ties in reading order)."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]


@dataclass
class Shortlist:
    """One question's top candidates under the selector and their features."""

    rows: list[int]
    x: NDArray[np.float64]  # one row per candidate, FEATURES columns
    labels: NDArray[np.bool_]  # the candidate holds an answer
    replies: NDArray[np.bool_]  # the reply built on the candidate holds an answer


def shortlist(
    question: dict[str, Any], done: Read, k: int, store: E5Store, rules: tuple[float, float]
) -> Shortlist:
    """The top ``k`` sentences of ``done`` with their re-ranking features and labels."""
    rows = top_k(done.scores, k)
    p = np.clip(done.scores[rows], 1e-9, 1 - 1e-9)
    query = store.vectors("query", [question["q"]])[0]
    sentences = store.vectors("passage", [done.rows.texts[i] for i in rows])
    x = np.column_stack([np.log(p / (1 - p)), sentences @ query, np.arange(len(rows))])
    replies = [answer(done, question["answers"], rules, i).reply_holds for i in rows]
    return Shortlist(rows, x.astype(np.float64), done.rows.labels[rows], np.array(replies))


@dataclass
class Reranker:
    """Listwise weights over ``columns`` of ``FEATURES``."""

    columns: tuple[int, ...]
    weights: NDArray[np.float64]

    def choose(self, short: Shortlist) -> int:
        """The row (of the read sentences) the re-ranker answers with."""
        values = short.x[:, self.columns] @ self.weights
        best = min(range(len(values)), key=lambda i: (-values[i], i))
        return short.rows[best]


def fit_reranker(
    shorts: list[Shortlist], columns: tuple[int, ...], l2: float, target: str = "sentence"
) -> Reranker:
    """Weights maximising the softmax mass of each question's good candidates: those that
    hold an answer (``target`` ``sentence``) or whose reply does (``reply``). Questions
    whose candidates are all good or all bad carry no information and are skipped."""
    good = [s.labels if target == "sentence" else s.replies for s in shorts]
    useful = [i for i, g in enumerate(good) if g.any() and not g.all()]
    x = np.vstack([shorts[i].x[:, columns] for i in useful])
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    weights = listwise_weights(x / scale, [good[i] for i in useful], l2) / scale
    return Reranker(columns, np.asarray(weights, dtype=np.float64))


def patch_answerer(path: str) -> None:
    """Makes ``vigia.llm.embedded`` answer with the re-ranker stored at ``path`` (written by
    ``bench/fit_rerank.py --final --write``): of the selector's top ``k`` sentences, the one
    the re-ranker prefers gets the best score. e5 vectors come from the package's text
    cache (``vigia.embeddings.TEXT_VECTORS``), as a shipped re-ranker would use it; the
    passage order (``vigia.llm.reading.by_best_sentence``) is untouched."""
    import dataclasses
    import json
    from pathlib import Path

    from vigia.embeddings import TEXT_VECTORS, get_embedder
    from vigia.llm import embedded
    from vigia.llm.reading import ScoredSentence, score_sentences

    data = json.loads(Path(path).read_text(encoding="utf-8"))
    k, weights = int(data["k"]), np.asarray(data["weights"], dtype=np.float64)
    columns = [FEATURES.index(name) for name in data["features"]]

    def reranked(message: str, passages: Sequence[Any]) -> list[ScoredSentence]:
        scored = score_sentences(message, passages)
        if len(scored) < 2:
            return scored
        order = sorted(range(len(scored)), key=lambda i: (-scored[i].score, scored[i].order))
        rows = order[:k]
        p = np.clip(np.array([scored[i].score for i in rows]), 1e-9, 1 - 1e-9)
        e5 = get_embedder("e5")
        query = TEXT_VECTORS.queries(e5, [message])[0]
        vectors = TEXT_VECTORS.passages(e5, [scored[i].text for i in rows])
        x = np.column_stack([np.log(p / (1 - p)), vectors @ query, np.arange(len(rows))])
        values = x[:, columns] @ weights
        chosen = rows[min(range(len(rows)), key=lambda j: (-values[j], j))]
        return [
            dataclasses.replace(s, score=2.0) if i == chosen else s for i, s in enumerate(scored)
        ]

    embedded.score_sentences = reranked  # type: ignore[attr-defined]
