"""The PostgreSQL search backend: BM25 over a postings table, stored float32 vectors.

Lexical (migrations ``0006_search_postgres``, ``0015_search_vocabulary``,
``0016_search_postings``): ``search_vocabulary`` holds each term of each collection with an
integer id and how many entries hold it (BM25's document frequencies by index lookup);
``search_postings`` one row per term id and entry with the term's count in the entry (``tf``)
and the entry's number of words (``size``), read through one covering index
``(term_id, entry_id) INCLUDE (tf, size)`` (FTS5's own layout: no heap, no tsvector to
unnest); ``search_terms`` per entry its size and term ids (to find its postings when it is
removed); ``search_totals`` entries and words per collection. The terms are the folded,
stemmed content words of ``vigia.search.text`` (the words SQLite's FTS5 table holds). A
query looks its terms up in the vocabulary of the searched collections (rarest first within
``hybrid.POSTING_BUDGET``, as on SQLite) and ranks the entries of their postings by the
BM25 of FTS5's ``bm25()``: ``k1 = 1.2``, ``b = 0.75``,
``idf = ln((N - n + 0.5) / (n + 0.5))`` (``1e-6`` when not positive), ``N`` and the
average length over the entries of every collection. Both backends thus give the same
scores and order. Dense search and the fusion of both sides are shared
(``vigia.search.hybrid``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from sqlalchemy import bindparam, text
from sqlalchemy.orm import Session

from vigia.search.hybrid import HybridSearchIndex
from vigia.search.text import PROSE, Analyzer

K1 = 1.2
B = 0.75
MIN_IDF = 1e-6
MAX_TERM_BYTES = 2047

_INSERT_TERMS = text(
    "INSERT INTO search_terms (entry_id, collection, size, term_ids)"
    " VALUES (:id, :collection, :size, CAST(:term_ids AS integer[]))"
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
# The vocabulary follows the writes: the batch's new terms are inserted first (in term
# order; only they draw ids), then every term of the batch counts the new entries holding
# it and gives its id for their postings.
_NEW_TERMS = text(
    "INSERT INTO search_vocabulary (term, collection, entries)"
    " SELECT q.term, CAST(:collection AS varchar), 0 FROM unnest(CAST(:terms AS text[])) AS q(term)"
    " WHERE NOT EXISTS (SELECT 1 FROM search_vocabulary AS v"
    " WHERE v.term = q.term AND v.collection = :collection)"
    " ORDER BY q.term ON CONFLICT (term, collection) DO NOTHING"
)
_ADD_VOCABULARY = text(
    "UPDATE search_vocabulary SET entries = search_vocabulary.entries + q.n"
    " FROM unnest(CAST(:terms AS text[]), CAST(:counts AS bigint[])) AS q(term, n)"
    " WHERE search_vocabulary.term = q.term AND search_vocabulary.collection = :collection"
    " RETURNING search_vocabulary.term, search_vocabulary.id"
)
_INSERT_POSTINGS = text(
    "INSERT INTO search_postings (term_id, entry_id, tf, size)"
    " SELECT * FROM unnest(CAST(:term_ids AS integer[]), CAST(:entry_ids AS integer[]),"
    " CAST(:tfs AS integer[]), CAST(:sizes AS integer[]))"
)
# Removal: the removed entries' term ids (from ``search_terms``) say which vocabulary rows
# to decrement and which postings to delete, each by its primary key.
_GONE = (
    "SELECT t.term_id, s.entry_id FROM search_terms AS s"
    " CROSS JOIN LATERAL unnest(s.term_ids) AS t(term_id) WHERE s.entry_id IN :ids"
)
_SUBTRACT_VOCABULARY = text(
    "UPDATE search_vocabulary SET entries = search_vocabulary.entries - gone.n "
    f"FROM (SELECT term_id, count(*) AS n FROM ({_GONE}) AS g GROUP BY term_id) AS gone "
    "WHERE search_vocabulary.id = gone.term_id"
    " RETURNING search_vocabulary.id, search_vocabulary.entries"
).bindparams(bindparam("ids", expanding=True))
_DELETE_POSTINGS = text(
    f"DELETE FROM search_postings AS p USING ({_GONE}) AS gone"
    " WHERE p.term_id = gone.term_id AND p.entry_id = gone.entry_id"
).bindparams(bindparam("ids", expanding=True))
_FORGET_TERMS = text(
    "DELETE FROM search_vocabulary WHERE id = ANY(CAST(:term_ids AS integer[])) AND entries <= 0"
)
# Dropping a collection: its postings, found by its vocabulary's term ids.
_DROP_POSTINGS = text(
    "DELETE FROM search_postings WHERE term_id IN"
    " (SELECT id FROM search_vocabulary WHERE collection = :collection)"
)
# ``:terms`` and ``:frequencies`` are parallel arrays: each query term and how many
# entries hold it. An entry's score sums over the query terms it holds.
_LEXICAL = text(
    "WITH totals AS ("
    " SELECT CAST(coalesce(sum(entries), 0) AS float8) AS n,"
    " CAST(coalesce(sum(words), 0) AS float8) / greatest(sum(entries), 1) AS avgdl"
    " FROM search_totals),"
    " query AS ("
    " SELECT v.id, CASE WHEN ln((t.n - q.df + 0.5) / (q.df + 0.5)) > 0"
    f" THEN ln((t.n - q.df + 0.5) / (q.df + 0.5)) ELSE {MIN_IDF} END AS idf"
    " FROM unnest(CAST(:terms AS text[]), CAST(:frequencies AS float8[])) AS q(term, df)"
    " JOIN search_vocabulary AS v ON v.term = q.term AND v.collection IN :collections"
    " CROSS JOIN totals AS t),"
    " scored AS ("
    " SELECT p.entry_id, sum(q.idf * p.tf * "
    f" {K1 + 1} / (p.tf + {K1} * (1 - {B} + {B} * p.size / greatest(t.avgdl, 1e-9)))) AS score"
    " FROM query AS q"
    " JOIN search_postings AS p ON p.term_id = q.id"
    " CROSS JOIN totals AS t"
    " GROUP BY p.entry_id"
    " ORDER BY score DESC, p.entry_id LIMIT :limit)"
    " SELECT e.key, e.collection, scored.score"
    " FROM scored JOIN search_entries AS e ON e.id = scored.entry_id"
    " ORDER BY scored.score DESC, scored.entry_id"
).bindparams(bindparam("collections", expanding=True))


def _indexable(term: str) -> bool:
    """Whether a term fits a btree key (the vocabulary's): at most 2,047 bytes in UTF-8, the
    bound ``to_tsvector`` also kept. Longer ones (a blob in source code) are not indexed
    but still count in the entry's size."""
    return len(term) <= 511 or len(term.encode()) <= MAX_TERM_BYTES


def _array(numbers: Iterable[int]) -> str:
    """An integer array as PostgreSQL's text literal (``{1,2,3}``): for the ~22,000 postings
    of a batch, 5x cheaper to build than letting the driver adapt a list of ints."""
    return "{" + ",".join(map(str, numbers)) + "}"


class PostgresSearchIndex(HybridSearchIndex):
    """``SearchIndex`` on PostgreSQL (BM25 over postings, vectors kept in memory).

    Deleting entries deletes their ``search_terms`` rows, and deleting a collection its
    ``search_totals`` and ``search_vocabulary`` rows (``ON DELETE CASCADE``). Postings have
    no foreign key (checking one per posting cost the database 70 % more CPU when writing):
    ``remove`` and ``drop`` delete them, so entries must be written through this index.
    """

    document_frequency_sql = _DOC_FREQUENCY

    def index_words(
        self,
        session: Session,
        collection: str,
        rows: list[tuple[int, str]],
        analyzer: Analyzer = PROSE,
    ) -> None:
        words = [analyzer.split(t) for _, t in rows]
        sizes = [len(w) for w in words]
        counts = [Counter(t for t in w if _indexable(t)) for w in words]
        # The collection's totals row first: it serialises the writers of one collection.
        session.execute(
            _ADD_TOTALS, {"collection": collection, "n": len(rows), "words": sum(sizes)}
        )
        holding = Counter(term for c in counts for term in c)
        terms = sorted(holding)
        ids: dict[str, int] = {}
        if terms:
            session.execute(_NEW_TERMS, {"collection": collection, "terms": terms})
            found = session.execute(
                _ADD_VOCABULARY,
                {"collection": collection, "terms": terms, "counts": [holding[t] for t in terms]},
            )
            ids = {str(term): int(term_id) for term, term_id in found}
        session.execute(
            _INSERT_TERMS,
            [
                {
                    "id": i,
                    "collection": collection,
                    "size": size,
                    "term_ids": _array(sorted(ids[t] for t in c)),
                }
                for (i, _), c, size in zip(rows, counts, sizes, strict=True)
            ],
        )
        postings = sorted(
            (ids[term], i, tf, size)
            for (i, _), c, size in zip(rows, counts, sizes, strict=True)
            for term, tf in c.items()
        )
        if postings:
            columns = [_array(column) for column in zip(*postings, strict=True)]
            names = ("term_ids", "entry_ids", "tfs", "sizes")
            session.execute(_INSERT_POSTINGS, dict(zip(names, columns, strict=True)))

    def unindex(self, session: Session, collection: str, ids: list[int]) -> None:
        session.execute(_SUBTRACT_TOTALS, {"collection": collection, "ids": ids})
        left = session.execute(_SUBTRACT_VOCABULARY, {"ids": ids}).all()
        session.execute(_DELETE_POSTINGS, {"ids": ids})
        gone = [int(term_id) for term_id, entries in left if entries <= 0]
        if gone:
            session.execute(_FORGET_TERMS, {"term_ids": gone})

    def unindex_collection(self, session: Session, collection: str) -> None:
        session.execute(_DROP_POSTINGS, {"collection": collection})

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
            "collections": list(collections),
            "limit": limit,
        }
        rows = session.execute(_LEXICAL, params).all()
        return [(r[0], r[1], float(r[2])) for r in rows]
