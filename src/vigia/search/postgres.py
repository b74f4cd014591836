"""The PostgreSQL search backend: BM25 over a tsvector table, stored float32 vectors.

Lexical: the table ``search_terms`` (migration ``0006_search_postgres``) holds each entry's
folded, stemmed content words (``vigia.search.text.index_terms``, the words SQLite's FTS5
table holds) as ``to_tsvector('simple', …)`` under a GIN index, with the entry's number of
words and its collection; ``search_totals`` keeps entries and words per collection and
``search_vocabulary`` (migration ``0015_search_vocabulary``) how many entries of each
collection hold each term, so document frequencies are index lookups. The
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
# Document frequencies over every collection (as FTS5 counts them), from the vocabulary.
_DOC_FREQUENCY = text(
    "SELECT q.term, coalesce((SELECT sum(v.entries) FROM search_vocabulary AS v"
    " WHERE v.term = q.term), 0) "
    "FROM unnest(CAST(:terms AS text[])) AS q(term)"
)
# The vocabulary follows the writes: each term of the new entries counted once per entry,
# taken from their stored tsvectors (so it holds exactly the lexemes BM25 joins on), in
# term order (concurrent writers lock rows in the same order).
_ADD_VOCABULARY = text(
    "INSERT INTO search_vocabulary (term, collection, entries)"
    " SELECT lexeme, :collection, count(*)"
    " FROM search_terms CROSS JOIN LATERAL unnest(tsvector_to_array(terms)) AS lexeme"
    " WHERE entry_id IN :ids GROUP BY lexeme ORDER BY lexeme "
    "ON CONFLICT (term, collection) DO UPDATE"
    " SET entries = search_vocabulary.entries + excluded.entries"
).bindparams(bindparam("ids", expanding=True))
_SUBTRACT_VOCABULARY = text(
    "UPDATE search_vocabulary SET entries = search_vocabulary.entries - gone.n "
    "FROM (SELECT lexeme, count(*) AS n"
    " FROM search_terms CROSS JOIN LATERAL unnest(tsvector_to_array(terms)) AS lexeme"
    " WHERE entry_id IN :ids GROUP BY lexeme) AS gone "
    "WHERE search_vocabulary.collection = :collection AND search_vocabulary.term = gone.lexeme"
    " RETURNING search_vocabulary.term, search_vocabulary.entries"
).bindparams(bindparam("ids", expanding=True))
_FORGET_TERMS = text(
    "DELETE FROM search_vocabulary WHERE collection = :collection"
    " AND term = ANY(CAST(:terms AS text[])) AND entries <= 0"
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
    ``search_totals`` and ``search_vocabulary`` rows (``ON DELETE CASCADE``).
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
        # The collection's totals row first: it serialises the writers of one collection.
        session.execute(
            _ADD_TOTALS, {"collection": collection, "n": len(words), "words": sum(sizes)}
        )
        session.execute(
            _INSERT_TERMS,
            [
                {"id": i, "collection": collection, "size": size, "terms": w}
                for (i, w), size in zip(words, sizes, strict=True)
            ],
        )
        session.execute(_ADD_VOCABULARY, {"collection": collection, "ids": [i for i, _ in rows]})

    def unindex(self, session: Session, collection: str, ids: list[int]) -> None:
        session.execute(_SUBTRACT_TOTALS, {"collection": collection, "ids": ids})
        left = session.execute(_SUBTRACT_VOCABULARY, {"collection": collection, "ids": ids})
        gone = [str(term) for term, entries in left if entries <= 0]
        if gone:
            session.execute(_FORGET_TERMS, {"collection": collection, "terms": gone})

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
