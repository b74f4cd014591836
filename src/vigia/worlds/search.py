"""Full-text search over world chunks behind a small protocol, plus query-term helpers.

Backends: ``SqliteFtsSearch`` (FTS5, in ``search_sqlite.py``) on SQLite and ``SqlLikeSearch``
(portable, any SQL database) elsewhere until a PostgreSQL ``tsvector`` backend lands.
Both pass the same contract tests (``tests/worlds/test_search_contract.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import delete, or_, select
from sqlalchemy.orm import Session

from vigia.language import STOPWORDS_EN, word_set
from vigia.worlds.models import WorldChunk

# Words of a question about code that name no symbol ("why does X return the wrong value").
QUESTION_WORDS = word_set(
    """
    explain tell show find list give yes via wrong value values returns return returned change
    changes changed happen happens happened issue problem error bug
    """
)
STOPWORDS = STOPWORDS_EN | QUESTION_WORDS
_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9]|[A-Za-z0-9]")


@dataclass(frozen=True)
class ChunkHit:
    """A chunk that matched, with its score (higher is better)."""

    chunk_id: int
    path: str
    line_start: int
    line_end: int
    text: str
    score: float


def query_terms(text: str, limit: int = 16) -> list[str]:
    """Distinct search terms of a question, upper-cased, stopwords dropped, names kept whole."""
    out: list[str] = []
    for match in _TERM.finditer(text):
        term = match.group(0).strip(".-").upper()
        if len(term) < 2 or term.lower() in STOPWORDS or term in out:
            continue
        out.append(term)
    return out[:limit]


def term_weight(term: str) -> int:
    """A hyphenated name (``WS-TAX-RATE``) says more than a plain word."""
    return 2 if "-" in term else 1


def line_score(line: str, terms: list[str]) -> int:
    """How much of the (upper-case) query ``terms`` one line holds."""
    upper = line.upper()
    return sum(term_weight(term) for term in terms if term in upper)


def best_line(hit: ChunkHit, terms: list[str]) -> tuple[int, str]:
    """The line of a chunk that holds the most query terms: its number and text."""
    best, best_score = (hit.line_start, ""), -1
    for offset, text in enumerate(hit.text.splitlines()):
        score = line_score(text, terms)
        if score > best_score and text.strip():
            best, best_score = (hit.line_start + offset, text.strip()), score
    return best


def scope_filter(paths: list[str]) -> list[object]:
    """SQL conditions keeping chunks under any of ``paths`` (prefix folders or files)."""
    conditions: list[object] = []
    for path in paths:
        conditions.append(WorldChunk.path == path)
        conditions.append(WorldChunk.path.startswith(path.rstrip("/") + "/", autoescape=True))
    return conditions


class WorldSearch(Protocol):
    """What the indexer and the lenses need from a full-text backend."""

    def add_chunks(self, session: Session, chunks: list[WorldChunk]) -> None:
        """Indexes flushed chunks (their ids are set)."""

    def remove_file(self, session: Session, file_id: int) -> None:
        """Drops every chunk of a file from the index and from ``world_chunks``."""

    def search(
        self,
        session: Session,
        world_id: str,
        terms: list[str],
        scope_paths: list[str],
        limit: int = 8,
    ) -> list[ChunkHit]:
        """Best chunks of a world for ``terms`` (any term may match), best first."""


class SqlLikeSearch:
    """Portable fallback: case-insensitive ``LIKE`` per term, scored by terms matched."""

    def add_chunks(self, session: Session, chunks: list[WorldChunk]) -> None:
        return None

    def remove_file(self, session: Session, file_id: int) -> None:
        session.execute(delete(WorldChunk).where(WorldChunk.file_id == file_id))

    def search(
        self,
        session: Session,
        world_id: str,
        terms: list[str],
        scope_paths: list[str],
        limit: int = 8,
    ) -> list[ChunkHit]:
        if not terms:
            return []
        query = select(WorldChunk).where(WorldChunk.world_id == world_id)
        query = query.where(or_(*[WorldChunk.text.icontains(t, autoescape=True) for t in terms]))
        if scope_paths:
            query = query.where(or_(*scope_filter(scope_paths)))  # type: ignore[arg-type]
        hits = []
        for chunk in session.scalars(query.limit(500)):
            upper = chunk.text.upper()
            score = sum(upper.count(t) * term_weight(t) for t in terms)
            hits.append(
                ChunkHit(
                    chunk.id, chunk.path, chunk.line_start, chunk.line_end, chunk.text, float(score)
                )
            )
        hits.sort(key=lambda h: (-h.score, h.path, h.line_start))
        return hits[:limit]
