"""Feature rows of stored reading pools, the selector's fit, and the figures it is judged by.

A question's pool is the lexical top L and the dense top D of its stored search (as
``vigia.knowledge.retrieval.reading_pool`` builds it); its rows are computed by the
package's own ``vigia.llm.sentence_features.features``. A sentence is labelled positive
when it holds a gold answer (folded, as ``bench/knowledge_public.py`` checks replies).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from bench.reader.pools import Pools
from numpy.typing import NDArray

from vigia.kit.logistic import fit_binary, lbfgs
from vigia.language import fold
from vigia.llm.sentence_features import FEATURE_NAMES, Candidates, features

Scorer = Callable[[NDArray[np.float32]], NDArray[np.float64]]
# The hand-set relevance (vigia.llm.reading): cosine + passage score − 0.02 per passage rank
# + 0.6 × IDF overlap; before the selector it also chose the answering sentence.
COSINE, OVERLAP_IDF, PASSAGE_SCORE = (
    FEATURE_NAMES.index(n) for n in ("cosine", "overlap_idf", "passage_score")
)


def holds(text: str, answers: list[str]) -> bool:
    folded = fold(text)
    return any(fold(a) in folded for a in answers)


def pool_ids(question: dict[str, Any], lexical: int, dense: int) -> list[str]:
    ids = list(question["lexical"][:lexical])
    return ids + [d for d in question["dense"][:dense] if d not in ids]


@dataclass
class Rows:
    """One question's candidate sentences over the passages ``ids``, in reading order."""

    ids: list[str]
    x: NDArray[np.float32]
    labels: NDArray[np.bool_]
    passages: NDArray[np.int64]
    texts: list[str]


def rows_for(pools: Pools, index: int, ids: list[str]) -> Rows:
    question = pools.questions[index]
    texts: list[str] = []
    numbers: list[int] = []
    places: list[int] = []
    rows: list[int] = []
    for n, key in enumerate(ids):
        chunk = pools.chunks[key]
        for place, (text, row) in enumerate(zip(chunk["sentences"], chunk["rows"], strict=True)):
            texts.append(text)
            numbers.append(n)
            places.append(place)
            rows.append(row)
    texts, numbers, places, rows = texts[:240], numbers[:240], places[:240], rows[:240]
    found = Candidates(texts, numbers, places, [question["scores"][ids[n]] for n in numbers])
    x = features(question["q"], found, pools.queries[index], pools.vectors[rows])
    labels = np.array([holds(t, question["answers"]) for t in texts], dtype=bool)
    return Rows(ids, x, labels, np.array(numbers), texts)


def hand_set(rows: Rows) -> NDArray[np.float64]:
    """The hand-set relevance of each row."""
    x = rows.x.astype(np.float64)
    return x[:, PASSAGE_SCORE] - 0.02 * rows.passages + x[:, COSINE] + 0.6 * x[:, OVERLAP_IDF]


@dataclass
class Fit:
    weights: NDArray[np.float64]
    bias: float

    def __call__(self, x: NDArray[np.float32]) -> NDArray[np.float64]:
        return 1.0 / (1.0 + np.exp(-(x.astype(np.float64) @ self.weights + self.bias)))


def load_fit(path: str) -> Fit:
    """The weights and bias of a selector JSON file."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return Fit(np.asarray(data["weights"], dtype=np.float64), float(data["bias"]))


def listwise_weights(x: NDArray[np.float64], labels: list[NDArray[np.bool_]], l2: float) -> Any:
    """Weights maximising, per question with a positive candidate, the log of the softmax
    mass its positives get (rows of ``x`` grouped by question, ``labels`` per question)."""
    sizes = np.array([len(y) for y in labels])
    keep = np.array([bool(v.any()) for v in labels])
    useful = np.repeat(keep, sizes)
    x, y = x[useful], np.concatenate(labels).astype(np.float64)[useful]
    sizes = sizes[keep]
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    question = np.repeat(np.arange(len(sizes)), sizes)

    def objective(w: NDArray[np.float64]) -> tuple[float, NDArray[np.float64]]:
        s = x @ w
        e = np.exp(s - np.maximum.reduceat(s, starts)[question])
        total, held = np.add.reduceat(e, starts), np.add.reduceat(e * y, starts)
        loss = float(-(np.log(held) - np.log(total)).mean()) + 0.5 * l2 * float(w @ w)
        share = (e / total[question] - e * y / held[question]) / len(sizes)
        return loss, x.T @ share + l2 * w

    return lbfgs(objective, np.zeros(x.shape[1]))


def fit(all_rows: list[Rows], l2: float) -> Fit:
    """Ranking weights fitted listwise on standardised columns, then scaled and shifted
    into a probability (a one-feature logistic fit of the sentences' labels on the ranking
    score, each question weighing the same)."""
    x = np.vstack([r.x for r in all_rows]).astype(np.float64)
    labels = [r.labels for r in all_rows]
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    ranking = listwise_weights((x - mean) / scale, labels, l2) / scale
    score = (x @ ranking)[:, None]
    y = np.concatenate(labels).astype(np.float64)
    row_weights = np.concatenate([np.full(len(v), 1.0 / len(v)) for v in labels])
    slope, bias = fit_binary(score, y, 0.0, row_weights)
    return Fit(ranking * float(slope[0]), bias)


@dataclass
class Reading:
    """What one question's reading gives under a scorer."""

    recall_rank: int | None  # first passage (1-based, in reading order) holding an answer
    best_holds: bool  # the best sentence of the read passages holds an answer
    reply_holds: bool  # the answer (best + follower) holds one
    relevance: float  # the best relevance among the read sentences (the no-answer gate)
    reply_chars: int


@dataclass
class Read:
    """One question's read passages under a scorer: their rows and scores."""

    recall_rank: int | None  # first passage (1-based, in reading order) holding an answer
    rows: Rows
    scores: NDArray[np.float64]


def best_sentence(scores: NDArray[np.float64]) -> float:
    """A passage's score: its best sentence's (as the product orders the pool)."""
    return float(scores.max())


def read_rows(
    pools: Pools,
    index: int,
    scorer: Callable[[Rows], NDArray[np.float64]],
    lexical: int,
    dense: int,
    top_k: int = 5,
    passage_score: Callable[[NDArray[np.float64]], float] = best_sentence,
) -> Read:
    """Orders the pool by ``passage_score`` of its sentences' scores under ``scorer`` (by
    default the best sentence), keeps ``top_k`` and rescores their sentences (as
    ``vigia.knowledge.retrieval.read_passages`` then the answerer do)."""
    question = pools.questions[index]
    pool = rows_for(pools, index, pool_ids(question, lexical, dense))
    scores = scorer(pool)
    best = {n: passage_score(scores[pool.passages == n]) for n in set(pool.passages.tolist())}
    order = sorted(best, key=lambda n: (-best[n], n))[:top_k]
    ids = [pool.ids[n] for n in order]
    rank = next(
        (
            i
            for i, key in enumerate(ids, 1)
            if holds(pools.chunks[key]["text"], question["answers"])
        ),
        None,
    )
    rows = rows_for(pools, index, ids)
    return Read(rank, rows, scorer(rows))


def top_sentence(scores: NDArray[np.float64]) -> int:
    """The row with the best score (the first among equals)."""
    return min(range(len(scores)), key=lambda i: (-scores[i], i))


def answer(
    done: Read, answers: list[str], rules: tuple[float, float], top: int | None = None
) -> Reading:
    """Answers as ``vigia.llm.embedded`` does: the best sentence (``top``, by default the
    best score), and the most relevant other one (the hand-set score) when its relevance
    is at least ``rules`` (same passage, other passage) times the best's."""
    rows, relevance = done.rows, hand_set(done.rows)
    top = top_sentence(done.scores) if top is None else top
    chosen = [top]
    for i in sorted(range(len(relevance)), key=lambda i: (-relevance[i], i)):
        same = rows.passages[i] == rows.passages[top]
        ratio = rules[0] if same else rules[1]
        if relevance[i] >= ratio * relevance[top] and rows.texts[i] != rows.texts[top]:
            chosen.append(i)
            break
    reply = " ".join(rows.texts[i] for i in sorted(chosen))
    return Reading(
        done.recall_rank,
        bool(rows.labels[top]),
        holds(reply, answers),
        float(relevance.max()),
        len(reply),
    )


def read(
    pools: Pools,
    index: int,
    scorer: Callable[[Rows], NDArray[np.float64]],
    lexical: int,
    dense: int,
    rules: tuple[float, float],
    top_k: int = 5,
    passage_score: Callable[[NDArray[np.float64]], float] = best_sentence,
) -> Reading:
    """What a question's reading gives under ``scorer`` (``read_rows``, then ``answer``)."""
    done = read_rows(pools, index, scorer, lexical, dense, top_k, passage_score)
    return answer(done, pools.questions[index]["answers"], rules)
