"""SQLite-only search backend: FTS5 table ``world_chunks_fts`` (rowid = ``world_chunks.id``).

This is the only module of the worlds domain that speaks SQLite-specific SQL. The table is
created by migration ``0005_worlds`` on SQLite; a PostgreSQL counterpart (``tsvector`` +
GIN) is the documented TODO in docs/worlds.md (until then ``SqlLikeSearch`` serves it).
"""

from __future__ import annotations

import re

from sqlalchemy import delete, select, text
from sqlalchemy.orm import Session

from vigia.worlds.models import WorldChunk
from vigia.worlds.search import ChunkHit, SqlLikeSearch, WorldSearch

_SEQUENCE_AREA = re.compile(r"^\d{6}", re.MULTILINE)


def fts_text(chunk_text: str) -> str:
    """What FTS5 indexes: the chunk without COBOL sequence numbers."""
    return _SEQUENCE_AREA.sub("", chunk_text)


def fts_query(terms: list[str]) -> str:
    """FTS5 ``OR`` query; hyphenated names are phrases (``WS-TAX-RATE`` → ``"WS TAX RATE"``)."""
    parts = []
    for term in terms:
        words = [w for w in re.split(r"[^A-Za-z0-9]+", term) if w]
        if words:
            parts.append('"' + " ".join(words) + '"')
    return " OR ".join(parts)


class SqliteFtsSearch:
    """FTS5 with bm25 ranking; names weigh more than plain words."""

    def add_chunks(self, session: Session, chunks: list[WorldChunk]) -> None:
        if not chunks:
            return
        session.execute(
            text("INSERT INTO world_chunks_fts(rowid, text) VALUES (:id, :text)"),
            [{"id": c.id, "text": fts_text(c.text)} for c in chunks],
        )

    def remove_file(self, session: Session, file_id: int) -> None:
        ids = list(session.scalars(select(WorldChunk.id).where(WorldChunk.file_id == file_id)))
        for start in range(0, len(ids), 500):
            batch = ids[start : start + 500]
            session.execute(
                text("DELETE FROM world_chunks_fts WHERE rowid = :id"), [{"id": i} for i in batch]
            )
        session.execute(delete(WorldChunk).where(WorldChunk.file_id == file_id))

    def search(
        self,
        session: Session,
        world_id: str,
        terms: list[str],
        scope_paths: list[str],
        limit: int = 8,
    ) -> list[ChunkHit]:
        query = fts_query(terms)
        if not query:
            return []
        params: dict[str, object] = {"q": query, "world": world_id, "limit": limit}
        scope_sql = ""
        if scope_paths:
            clauses = []
            for i, path in enumerate(scope_paths):
                params[f"p{i}"] = path
                params[f"l{i}"] = (
                    path.rstrip("/").replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                    + "/%"
                )
                clauses.append(f"c.path = :p{i} OR c.path LIKE :l{i} ESCAPE '\\'")
            scope_sql = " AND (" + " OR ".join(clauses) + ")"
        rows = session.execute(
            text(
                "SELECT c.id, c.path, c.line_start, c.line_end, c.text, bm25(world_chunks_fts) "
                "FROM world_chunks_fts JOIN world_chunks c ON c.id = world_chunks_fts.rowid "
                "WHERE world_chunks_fts MATCH :q AND c.world_id = :world"
                + scope_sql
                + " ORDER BY bm25(world_chunks_fts) LIMIT :limit"
            ),
            params,
        )
        return [ChunkHit(r[0], r[1], r[2], r[3], r[4], -float(r[5])) for r in rows]


def search_backend(session: Session) -> WorldSearch:
    """FTS5 on SQLite; the portable fallback elsewhere (PostgreSQL tsvector: TODO)."""
    if session.get_bind().dialect.name == "sqlite":
        return SqliteFtsSearch()
    return SqlLikeSearch()
