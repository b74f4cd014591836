"""The PostgreSQL search backend: BM25 over a tsvector table, stored float32 vectors.

Lexical: the table ``search_terms`` (migration ``0006_search_postgres``) holds each entry's
folded, stemmed content words (``vigia.search.text.index_terms``, the words SQLite's FTS5
table holds) as ``to_tsvector('simple', …)`` under a GIN index, with the entry's number of
words and its collection; ``search_totals`` keeps entries and words per collection. The
``simple`` configuration only lower-cases and splits on what is not a letter or digit, so
its lexemes are exactly our terms. A query is the OR of its terms (rarest first within
``hybrid.POSTING_BUDGET``, as on SQLite); the GIN index finds the entries holding any, and
they are ranked by the BM25 of FTS5's ``bm25()``: ``k1 = 1.2``, ``b = 0.75``,
``idf = ln((N - n + 0.5) / (n + 0.5))`` (``1e-6`` when not positive), ``N`` and the
average length over the entries of every collection, term frequencies from the tsvector's
positions. Both backends thus give the same scores and order. Dense search and the fusion
of both sides are shared (``vigia.search.hybrid``).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

from vigia.search.hybrid import HybridSearchIndex
from vigia.search.text import PROSE, Analyzer

K1 = 1.2
B = 0.75
MIN_IDF = 1e-6

_INSERT_TERMS = text(
    "INSERT INTO search_terms (entry_id, collection, size, terms) "
    "VALUES (:id, :collection, :size, to_tsvector('simple', :terms))"
)
_ADD_TOTALS = text(
    "INSERT INTO search_totals (collection, entries, words) VALUES (:collection, :n, :words) "
    "ON CONFLICT (collection) DO UPDATE SET entries = search_totals.entries + excluded.entries,"
    " words = search_totals.words + excluded.words"
)
_SUBTRACT_TOTALS = text(
    "UPDATE search_totals SET entries = search_totals.entries - gone.n,"
    " words = search_totals.words - gone.size "
    "FROM (SELECT count(*) AS n, coalesce(sum(size), 0) AS size FROM search_terms"
    " WHERE entry_id IN :ids) AS gone "
    "WHERE search_totals.collection = :collection"
).bindparams(bindparam("ids", expanding=True))
_DOC_FREQUENCY = text(
    "SELECT q.term, (SELECT count(*) FROM search_terms AS s"
    " WHERE s.terms @@ to_tsquery('simple', q.term)) "
    "FROM unnest(CAST(:terms AS text[])) AS q(term)"
)
# ``:terms`` and ``:frequencies`` are parallel arrays: each query term and how many
# entries hold it. An entry's score sums over the query terms it holds.
_LEXICAL = text(
    "WITH totals AS ("
    " SELECT CAST(coalesce(sum(entries), 0) AS float8) AS n,"
    " CAST(coalesce(sum(words), 0) AS float8) / greatest(sum(entries), 1) AS avgdl"
    " FROM search_totals),"
    " query AS ("
    " SELECT q.term, CASE WHEN ln((t.n - q.df + 0.5) / (q.df + 0.5)) > 0"
    f" THEN ln((t.n - q.df + 0.5) / (q.df + 0.5)) ELSE {MIN_IDF} END AS idf"
    " FROM unnest(CAST(:terms AS text[]), CAST(:frequencies AS float8[])) AS q(term, df)"
    " CROSS JOIN totals AS t),"
    " scored AS ("
    " SELECT s.entry_id, s.collection, sum(q.idf * cardinality(u.positions) * "
    f" {K1 + 1} / (cardinality(u.positions) + {K1} * (1 - {B} + {B} * s.size"
    " / greatest(t.avgdl, 1e-9)))) AS score"
    " FROM search_terms AS s"
    " CROSS JOIN totals AS t"
    # Only the query's lexemes are unnested: marked with weight A, then kept by it (all
    # indexed lexemes have the default weight D). Unnesting all of them cost 4x more.
    " CROSS JOIN LATERAL unnest(ts_filter(setweight(s.terms, 'A', CAST(:terms AS text[])),"
    " '{a}')) AS u(lexeme, positions, weights)"
    " JOIN query AS q ON q.term = u.lexeme"
    " WHERE s.terms @@ to_tsquery('simple', :match) AND s.collection IN :collections"
    " GROUP BY s.entry_id, s.collection"
    " ORDER BY score DESC, s.entry_id LIMIT :limit)"
    " SELECT e.key, scored.collection, scored.score"
    " FROM scored JOIN search_entries AS e ON e.id = scored.entry_id"
    " ORDER BY scored.score DESC, scored.entry_id"
).bindparams(bindparam("collections", expanding=True))


class PostgresSearchIndex(HybridSearchIndex):
    """``SearchIndex`` on PostgreSQL (tsvector + GIN, vectors kept in memory per collection).

    Deleting entries deletes their ``search_terms`` rows, and deleting a collection its
    ``search_totals`` row (``ON DELETE CASCADE``).
    """

    document_frequency_sql = _DOC_FREQUENCY

    def index_words(
        self,
        session: Session,
        collection: str,
        rows: list[tuple[int, str]],
        analyzer: Analyzer = PROSE,
    ) -> None:
        words = [(i, analyzer.index_terms(t)) for i, t in rows]
        sizes = [len(w.split()) for _, w in words]
        session.execute(
            _INSERT_TERMS,
            [
                {"id": i, "collection": collection, "size": size, "terms": w}
                for (i, w), size in zip(words, sizes, strict=True)
            ],
        )
        session.execute(
            _ADD_TOTALS, {"collection": collection, "n": len(words), "words": sum(sizes)}
        )

    def unindex(self, session: Session, collection: str, ids: list[int]) -> None:
        session.execute(_SUBTRACT_TOTALS, {"collection": collection, "ids": ids})

    def unindex_collection(self, session: Session, collection: str) -> None:
        return None

    def rank_lexical(
        self,
        session: Session,
        collections: Sequence[str],
        terms: list[str],
        limit: int,
        frequency: dict[str, int] | None = None,
    ) -> list[tuple[str, str, float]]:
        if frequency is None or any(t not in frequency for t in terms):
            frequency = self.document_frequency(session, terms)
        params = {
            "terms": terms,
            "frequencies": [float(frequency.get(t, 0)) for t in terms],
            "match": " | ".join(terms),
            "collections": list(collections),
            "limit": limit,
        }
        rows = session.execute(_LEXICAL, params).all()
        return [(r[0], r[1], float(r[2])) for r in rows]
