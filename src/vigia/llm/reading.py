"""Which passage sentences answer a message: the scores behind the embedded answerer's
choice and behind the order in which retrieval hands passages to a model.

Each sentence gets two numbers. Its ``score`` is the trained answer-sentence selector's
probability that it answers the message (``vigia.llm.answer_selector``), from the features
of ``vigia.llm.sentence_features`` (USE cosine between message and sentence with its
heading, word overlap weighted by rarity among the candidates, the neighbours' overlap,
place in the passage, the passage's retrieval score and rank, the kind of question against
what the sentence holds): it picks the answering sentence and orders passages. Its
``relevance`` is the hand-set measure of how much the sentence is about the message: the
cosine, plus its passage's retrieval score, minus ``RANK_PENALTY`` per retrieval rank, plus
``LEXICAL_WEIGHT`` times the IDF-weighted share of the message's content words it holds.
The no-answer bar and the second sentence of an answer are decided on relevance, which
tells a knowledge base that does not hold the answer apart better than the selector does
(docs/knowledge.md). Deterministic: the same message and passages always score the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from vigia.embeddings import TEXT_VECTORS, get_embedder
from vigia.language import sentences
from vigia.llm import answer_selector
from vigia.llm.protocol import Passage
from vigia.llm.sentence_features import FEATURE_NAMES, Candidates, features

RANK_PENALTY = 0.02
LEXICAL_WEIGHT = 0.6
MAX_SENTENCES = 240
_COSINE, _OVERLAP_IDF = FEATURE_NAMES.index("cosine"), FEATURE_NAMES.index("overlap_idf")


@dataclass(frozen=True)
class ScoredSentence:
    """A passage sentence; ``passage`` is its passage's position (1-based), ``order`` its
    place in reading order over all passages; ``score`` (0–1) how likely it answers the
    message, ``relevance`` how much it is about it."""

    text: str
    passage: int
    score: float
    order: int
    relevance: float


def in_context(passage: Passage, sentence: str) -> str:
    """What is embedded for a passage sentence: the sentence after its passage's heading."""
    return f"{passage.heading} · {sentence}" if passage.heading else sentence


def candidates(passages: Sequence[Passage]) -> Candidates:
    """The sentences of ``passages`` in reading order (at most ``MAX_SENTENCES``)."""
    texts: list[str] = []
    numbers: list[int] = []
    places: list[int] = []
    for n, passage in enumerate(passages):
        for place, sentence in enumerate(sentences(passage.text)):
            if len(texts) < MAX_SENTENCES:
                texts.append(sentence)
                numbers.append(n)
                places.append(place)
    return Candidates(texts, numbers, places, [passages[n].score for n in numbers])


def score_sentences(message: str, passages: Sequence[Passage]) -> list[ScoredSentence]:
    """The sentences of ``passages`` (at most ``MAX_SENTENCES``) with their scores, in
    reading order; empty without passages or message."""
    found = candidates(passages)
    if not found.texts or not message.strip():
        return []
    embedder = get_embedder("use")
    query = TEXT_VECTORS.queries(embedder, [message])[0]
    contexts = [
        in_context(passages[n], t) for t, n in zip(found.texts, found.passages, strict=True)
    ]
    vectors = TEXT_VECTORS.passages(embedder, contexts)
    rows = features(message, found, query, vectors)
    scores = answer_selector.selector().probabilities(rows)
    return [
        ScoredSentence(
            text,
            n + 1,
            float(score),
            order,
            float(
                passages[n].score
                - RANK_PENALTY * n
                + row[_COSINE]
                + LEXICAL_WEIGHT * row[_OVERLAP_IDF]
            ),
        )
        for order, (text, n, score, row) in enumerate(
            zip(found.texts, found.passages, scores.tolist(), rows, strict=True)
        )
    ]


def by_best_sentence(message: str, passages: Sequence[Passage]) -> list[Passage]:
    """``passages`` ordered by the score of their best sentence (ties keep their order)."""
    best: dict[int, float] = {}
    for s in score_sentences(message, passages):
        best[s.passage] = max(best.get(s.passage, -math.inf), s.score)
    ranked = sorted(range(1, len(passages) + 1), key=lambda n: (-best.get(n, -math.inf), n))
    return [passages[n - 1] for n in ranked]
