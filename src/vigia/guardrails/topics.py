"""Blocked topics: subjects the agent's owner lists by name and a short description.

A topic is matched through its phrases: its name, its whole description, and each
comma- or semicolon-separated part of the description ("partidos políticos, elecciones,
candidatos"). A text touches the topic when every content word of the name, or of a phrase
of two or more words, appears in it (accent- and plural-insensitive), or when its embedding
(USE v3) is close enough to one of the phrases. Short phrases match far better than one long
description: the docs tell owners to write them that way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vigia.embeddings import get_embedder
from vigia.guardrails.config import BlockedTopic
from vigia.language import content_terms

SIMILARITY = 0.4


@dataclass(frozen=True)
class TopicHit:
    topic: str
    score: float
    by: str


def phrases(topic: BlockedTopic) -> list[str]:
    """The name, the description and each of its comma-separated parts."""
    parts = [topic.name]
    if topic.description.strip():
        parts.append(topic.description.strip())
        parts += [p.strip() for p in re.split(r"[,;\n]|\by\b|\be\b|\band\b", topic.description)]
    return list(dict.fromkeys(p for p in parts if p))


@lru_cache(maxsize=256)
def _phrase_vectors(topic: BlockedTopic) -> np.ndarray:
    return get_embedder("use").queries(phrases(topic))


def _keyword_sets(topic: BlockedTopic) -> list[set[str]]:
    sets = [set(content_terms(topic.name))]
    sets += [set(content_terms(p)) for p in phrases(topic)[2:]]
    return [s for i, s in enumerate(sets) if s and (i == 0 or len(s) >= 2)]


def find_topics(texts: list[str], topics: list[BlockedTopic]) -> list[list[TopicHit]]:
    """For each text, the blocked topics it touches (best first)."""
    if not topics or not texts:
        return [[] for _ in texts]
    vectors = get_embedder("use").queries(texts)
    out: list[list[TopicHit]] = []
    per_topic = [(t, _phrase_vectors(t), _keyword_sets(t)) for t in topics]
    for row, text in enumerate(texts):
        terms = set(content_terms(text))
        hits = []
        for topic, topic_vectors, keywords in per_topic:
            score = float(np.max(topic_vectors @ vectors[row]))
            if any(k <= terms for k in keywords):
                hits.append(TopicHit(topic.name, 1.0, "keyword"))
            elif score >= SIMILARITY:
                hits.append(TopicHit(topic.name, score, "similarity"))
        out.append(sorted(hits, key=lambda h: -h.score))
    return out
