"""Which passage sentences answer a message: the scores behind the embedded answerer's
choice and behind the order in which retrieval hands passages to a model.

A sentence scores the cosine between the message and the sentence with its heading
(multilingual USE, whose weights ship in its package), plus its passage's retrieval score,
minus a small penalty per retrieval rank, plus ``LEXICAL_WEIGHT`` times the share of the
message's content words the sentence holds, each word weighted by how rare it is among the
candidate sentences (IDF: the words that tell the answering sentence apart from its
neighbours). Deterministic: the same message and passages always score the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vigia.embeddings import TEXT_VECTORS, get_embedder
from vigia.language import content_terms, sentences
from vigia.llm.protocol import Passage

RANK_PENALTY = 0.02
LEXICAL_WEIGHT = 0.6
MAX_SENTENCES = 240


@dataclass(frozen=True)
class ScoredSentence:
    """A passage sentence; ``passage`` is its passage's position (1-based), ``order`` its
    place in reading order over all passages."""

    text: str
    passage: int
    score: float
    order: int


def _in_context(passage: Passage, sentence: str) -> str:
    return f"{passage.heading} · {sentence}" if passage.heading else sentence


def rare_word_overlap(message: str, texts: list[str]) -> list[float]:
    """For each text, the IDF-weighted share of the message's content words it holds."""
    wanted = set(content_terms(message))
    held = [set(content_terms(t)) & wanted for t in texts]
    if not wanted or not texts:
        return [0.0] * len(texts)
    counts = {w: sum(w in h for h in held) for w in wanted}
    weight = {w: math.log(1 + len(texts) / (1 + n)) for w, n in counts.items()}
    total = sum(weight.values())
    return [sum(weight[w] for w in h) / total for h in held]


def score_sentences(message: str, passages: Sequence[Passage]) -> list[ScoredSentence]:
    """The sentences of ``passages`` (at most ``MAX_SENTENCES``) with their scores, in
    reading order; empty without passages or message."""
    found: list[tuple[str, int, str]] = []
    for n, passage in enumerate(passages, start=1):
        for sentence in sentences(passage.text):
            if len(found) < MAX_SENTENCES:
                found.append((sentence, n, _in_context(passage, sentence)))
    if not found or not message.strip():
        return []
    embedder = get_embedder("use")
    query = TEXT_VECTORS.queries(embedder, [message])[0]
    similarity = np.asarray(TEXT_VECTORS.passages(embedder, [c for _, _, c in found]) @ query)
    lexical = rare_word_overlap(message, [s for s, _, _ in found])
    return [
        ScoredSentence(
            text,
            n,
            passages[n - 1].score - RANK_PENALTY * (n - 1) + float(sim) + LEXICAL_WEIGHT * w,
            order,
        )
        for order, ((text, n, _), sim, w) in enumerate(
            zip(found, similarity.tolist(), lexical, strict=True)
        )
    ]


def by_best_sentence(message: str, passages: Sequence[Passage]) -> list[Passage]:
    """``passages`` ordered by the score of their best sentence (ties keep their order)."""
    best: dict[int, float] = {}
    for s in score_sentences(message, passages):
        best[s.passage] = max(best.get(s.passage, -math.inf), s.score)
    ranked = sorted(range(1, len(passages) + 1), key=lambda n: (-best.get(n, -math.inf), n))
    return [passages[n - 1] for n in ranked]
