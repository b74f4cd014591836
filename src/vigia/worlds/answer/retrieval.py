"""Searches a world's passages on the shared search stack: hybrid BM25 (code analyzer:
``WS-TAX-RATE`` whole and in parts) and cosine over USE vectors, fused by reciprocal rank;
then restricted to the request's scope paths. The words searched and the meaning searched
may differ: callers pass the question without the words every question has as ``query``
and the question's own vector as ``vector``.

A scoped search ranks the whole collection before keeping the passages in scope, so a
narrow scope still gets its best passages (worlds are thousands of passages, not
millions: ranking them all is a few milliseconds).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.embeddings import Vectors
from vigia.search import CODE, index_for
from vigia.search.protocol import Mode
from vigia.search.text import code_terms
from vigia.worlds import embedding
from vigia.worlds.answer.doc_quote import best_sentence
from vigia.worlds.catalog import collection_of
from vigia.worlds.models import WorldChunk
from vigia.worlds.source import quote, readable

MAX_QUERY_CHARS = 2000
# A passage found by words only, whose meaning is less than half as close to the question
# as the best passage's, weighs half: words shared by chance ("client" in a Portuguese
# question and in "Git client") must not outrank what the question means.
UNRELATED = 0.5
WORDS_ONLY = 0.5


def in_scope(path: str, scope_paths: list[str]) -> bool:
    """Whether ``path`` is one of the scope paths or under one (no scope: everything)."""
    return not scope_paths or any(
        path == p or path.startswith(p.rstrip("/") + "/") for p in scope_paths
    )


@dataclass(frozen=True)
class ChunkHit:
    """A passage that matched, with the search's fused score and cosine similarity."""

    chunk: WorldChunk
    score: float
    similarity: float
    lexical_rank: int | None
    dense_rank: int | None

    @property
    def path(self) -> str:
        return self.chunk.path


def search_world(
    session: Session,
    world_id: str,
    query: str,
    scope_paths: list[str],
    limit: int = 8,
    mode: Mode = "hybrid",
    vector: Vectors | None = None,
) -> list[ChunkHit]:
    """The best ``limit`` passages of the world for ``query`` within the scope."""
    query = query[:MAX_QUERY_CHARS]
    if not query.strip() and vector is None:
        return []
    index = index_for(session)
    collection = collection_of(world_id)
    depth = max(limit, index.count(session, collection)) if scope_paths else limit
    if vector is None and mode != "lexical":
        vector = embedding.query(query)
    hits = index.search(session, [collection], query, vector, depth, mode, CODE)
    if not hits:
        return []
    rows = {
        str(chunk.id): chunk
        for chunk in session.scalars(
            select(WorldChunk).where(WorldChunk.id.in_([int(h.key) for h in hits]))
        )
    }
    best = max((h.similarity for h in hits), default=0.0)
    found = []
    for hit in hits:
        chunk = rows.get(hit.key)
        if chunk is None or not in_scope(chunk.path, scope_paths):
            continue
        score = hit.score
        if mode == "hybrid" and hit.dense_rank is None and hit.similarity < UNRELATED * best:
            score *= WORDS_ONLY  # shares words with the question, not its meaning
        found.append(ChunkHit(chunk, score, hit.similarity, hit.lexical_rank, hit.dense_rank))
    found.sort(key=lambda h: (-h.score, -h.similarity, h.chunk.id))
    return found[:limit]


def best_line(
    chunk: WorldChunk, query: str, vector: Vectors | None = None, question: str = ""
) -> tuple[int, str]:
    """The line of a passage that holds most of the query's terms: its number and quote
    (no quote when no line shares a term with the query). Documentation is quoted by
    sentence (``doc_quote``: words, meaning when ``vector`` is given, and a stated value
    when the ``question`` asks for one)."""
    if chunk.kind in ("doc", "text"):
        return best_sentence(chunk.text, chunk.line_start, query, vector, question)
    wanted = set(code_terms(query))
    best, best_score = (chunk.line_start, ""), 0
    for offset, raw in enumerate(chunk.text.splitlines()):
        text = readable(raw, chunk.fixed)
        if len(text) < 3:
            continue
        score = len(wanted & set(code_terms(text)))
        if score > best_score:
            best, best_score = (chunk.line_start + offset, quote(raw, chunk.fixed)), score
    return best
