"""The SQLite search backend: FTS5 BM25 for words, stored float32 vectors for meaning.

Lexical: the FTS5 table ``search_fts`` (tokenizer ``unicode61 remove_diacritics 2``) holds
each entry's folded, stemmed content words under the entry's integer id as rowid; a query
is the OR of its terms (rarest first, see ``hybrid.POSTING_BUDGET``; document frequencies
from the ``fts5vocab`` table ``search_fts_vocab``), ranked by FTS5's ``bm25()``. Dense
search and the fusion of both sides are shared with the other backends
(``vigia.search.hybrid``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

from vigia.search.hybrid import HybridSearchIndex
from vigia.search.text import PROSE, Analyzer

_LEXICAL = text(
    "SELECT e.key, e.collection, bm25(search_fts) AS rank FROM search_fts "
    "JOIN search_entries AS e ON e.id = search_fts.rowid "
    "WHERE search_fts MATCH :match AND e.collection IN :collections "
    "ORDER BY rank LIMIT :limit"
).bindparams(bindparam("collections", expanding=True))
_DOC_FREQUENCY = text("SELECT term, doc FROM search_fts_vocab WHERE term IN :terms").bindparams(
    bindparam("terms", expanding=True)
)
_INSERT_FTS = text("INSERT INTO search_fts(rowid, terms) VALUES (:id, :terms)")
_DELETE_FTS = text("DELETE FROM search_fts WHERE rowid IN :ids").bindparams(
    bindparam("ids", expanding=True)
)
_DELETE_COLLECTION_FTS = text(
    "DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_entries WHERE collection = :c)"
)


class SqliteSearchIndex(HybridSearchIndex):
    """``SearchIndex`` on SQLite (FTS5 + vectors kept in memory per collection)."""

    document_frequency_sql = _DOC_FREQUENCY

    def index_words(
        self,
        session: Session,
        collection: str,
        rows: list[tuple[int, str]],
        analyzer: Analyzer = PROSE,
    ) -> None:
        session.execute(_INSERT_FTS, [{"id": i, "terms": analyzer.index_terms(t)} for i, t in rows])

    def unindex(self, session: Session, collection: str, ids: list[int]) -> None:
        session.execute(_DELETE_FTS, {"ids": ids})

    def unindex_collection(self, session: Session, collection: str) -> None:
        session.execute(_DELETE_COLLECTION_FTS, {"c": collection})

    def rank_lexical(
        self,
        session: Session,
        collections: Sequence[str],
        terms: list[str],
        limit: int,
        frequency: dict[str, int] | None = None,
    ) -> list[tuple[str, str, float]]:
        match = " OR ".join(f'"{t}"' for t in terms)
        rows = session.execute(
            _LEXICAL, {"match": match, "collections": list(collections), "limit": limit}
        ).all()
        return [(r[0], r[1], -float(r[2])) for r in rows]
