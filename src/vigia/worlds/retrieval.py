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

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.embeddings import Vectors
from vigia.search import CODE, index_for
from vigia.search.protocol import Mode
from vigia.search.text import code_terms
from vigia.worlds import embedding
from vigia.worlds.models import WorldChunk
from vigia.worlds.source import quote, readable, shorten

MAX_QUERY_CHARS = 2000
DOC_QUOTE_CHARS = 320
# A passage found by words only, whose meaning is less than half as close to the question
# as the best passage's, weighs half: words shared by chance ("client" in a Portuguese
# question and in "Git client") must not outrank what the question means.
UNRELATED = 0.5
WORDS_ONLY = 0.5


def collection_of(world_id: str) -> str:
    """The search collection of a world's passages."""
    return f"world:{world_id}"


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


def _sentences(chunk: WorldChunk) -> list[tuple[int, str]]:
    """The sentences of a documentation passage with the line each starts on (headings and
    table rows are sentences of their own)."""
    found: list[tuple[int, str]] = []
    current: list[str] = []
    start = chunk.line_start
    for offset, raw in enumerate(chunk.text.splitlines()):
        line = raw.strip()
        if not line or line.startswith(("#", "|", "-", "*")):
            if current:
                found.append((start, " ".join(current)))
            current = []
            if line:
                found.append((chunk.line_start + offset, line))
            continue
        for piece in re.split(r"(?<=[.!?])\s+(?=[A-Z`\"'(])", line):
            if not current:
                start = chunk.line_start + offset
            current.append(piece)
            if re.search(r"[.!?]$", piece):
                found.append((start, " ".join(current)))
                current = []
    if current:
        found.append((start, " ".join(current)))
    return found


def best_line(chunk: WorldChunk, query: str) -> tuple[int, str]:
    """The line of a passage that holds most of the query's terms: its number and quote
    (no quote when no line shares a term with the query). Documentation is quoted by
    sentence: the best one (the first of equals) with the sentence that follows it."""
    wanted = set(code_terms(query))
    if chunk.kind in ("doc", "text"):
        sentences = _sentences(chunk)
        scores = [
            0 if text.startswith("#") else len(wanted & set(code_terms(text)))
            for _n, text in sentences
        ]
        if not any(scores):
            return chunk.line_start, ""
        top = max(range(len(sentences)), key=lambda i: (scores[i], -i))
        number, text = sentences[top]
        follows = sentences[top + 1][1] if top + 1 < len(sentences) else ""
        if follows and not follows.startswith(("#", "|")) and not text.startswith(("#", "|")):
            text = f"{text} {follows}"  # the sentence after it usually explains it
        return number, shorten(text.replace("`", ""), DOC_QUOTE_CHARS)
    best, best_score = (chunk.line_start, ""), 0
    for offset, raw in enumerate(chunk.text.splitlines()):
        text = readable(raw, chunk.fixed)
        if len(text) < 3:
            continue
        score = len(wanted & set(code_terms(text)))
        if score > best_score:
            best, best_score = (chunk.line_start + offset, quote(raw, chunk.fixed)), score
    return best
