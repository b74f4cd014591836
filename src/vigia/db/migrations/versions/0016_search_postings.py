"""search on PostgreSQL: a postings table replaces the tsvector and its GIN index

Revision ID: 0016_search_postings
Revises: 0015_search_vocabulary
"""

from __future__ import annotations

from alembic import op

revision = "0016_search_postings"
down_revision = "0015_search_vocabulary"
branch_labels = None
depends_on = None

# PostgreSQL only. Each ``search_vocabulary`` row (a term of a collection) gets an integer
# id; ``search_postings`` holds, per term id and entry, the term's count in the entry (``tf``)
# and the entry's number of words (``size``): all BM25 reads, from one covering index, no
# heap (FTS5's layout). No foreign key: checking one per posting cost the database 70 % more
# CPU when writing; the index's writes delete postings with their entries or collection
# (``vigia.search.postgres``). ``search_terms`` keeps, per entry, its size and the ids of
# its terms (to find its postings when it is removed) instead of a tsvector.
VOCABULARY_ID = (
    "ALTER TABLE search_vocabulary ADD COLUMN id integer GENERATED ALWAYS AS IDENTITY",
    "ALTER TABLE search_vocabulary ADD CONSTRAINT uq_search_vocabulary_id UNIQUE (id)",
)
POSTINGS_DDL = (
    "CREATE TABLE search_postings ("
    " term_id integer NOT NULL,"
    " entry_id integer NOT NULL,"
    " tf integer NOT NULL,"
    " size integer NOT NULL,"
    " CONSTRAINT pk_search_postings PRIMARY KEY (term_id, entry_id) INCLUDE (tf, size))"
)
# From the stored tsvectors (term frequencies from their positions, as BM25 read them).
BACKFILL = (
    "ALTER TABLE search_terms ADD COLUMN term_ids integer[]",
    "INSERT INTO search_postings (term_id, entry_id, tf, size)"
    " SELECT v.id, s.entry_id, cardinality(u.positions), s.size"
    " FROM search_terms AS s"
    " CROSS JOIN LATERAL unnest(s.terms) AS u(lexeme, positions, weights)"
    " JOIN search_vocabulary AS v ON v.term = u.lexeme AND v.collection = s.collection"
    " ORDER BY v.id, s.entry_id",
    "UPDATE search_terms SET term_ids = own.ids"
    " FROM (SELECT s.entry_id, array_agg(v.id ORDER BY v.id) AS ids FROM search_terms AS s"
    " CROSS JOIN LATERAL unnest(tsvector_to_array(s.terms)) AS lexeme"
    " JOIN search_vocabulary AS v ON v.term = lexeme AND v.collection = s.collection"
    " GROUP BY s.entry_id) AS own"
    " WHERE search_terms.entry_id = own.entry_id",
    "UPDATE search_terms SET term_ids = '{}' WHERE term_ids IS NULL",
    "ALTER TABLE search_terms ALTER COLUMN term_ids SET NOT NULL",
)
DROP_TSVECTOR = (
    "DROP INDEX ix_search_terms_terms",
    "ALTER TABLE search_terms DROP COLUMN terms",
)
# Back: each entry's tsvector rebuilt from its postings (each term repeated ``tf`` times).
RESTORE_TSVECTOR = (
    "ALTER TABLE search_terms ADD COLUMN terms tsvector",
    "UPDATE search_terms SET terms = own.terms"
    " FROM (SELECT p.entry_id,"
    " to_tsvector('simple', string_agg(repeat(v.term || ' ', p.tf), '')) AS terms"
    " FROM search_postings AS p JOIN search_vocabulary AS v ON v.id = p.term_id"
    " GROUP BY p.entry_id) AS own"
    " WHERE search_terms.entry_id = own.entry_id",
    "UPDATE search_terms SET terms = ''::tsvector WHERE terms IS NULL",
    "ALTER TABLE search_terms ALTER COLUMN terms SET NOT NULL",
    "CREATE INDEX ix_search_terms_terms ON search_terms USING gin (terms)",
    "ALTER TABLE search_terms DROP COLUMN term_ids",
    "DROP TABLE search_postings",
    "ALTER TABLE search_vocabulary DROP COLUMN id",
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in (*VOCABULARY_ID, POSTINGS_DDL, *BACKFILL, *DROP_TSVECTOR):
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in RESTORE_TSVECTOR:
            op.execute(statement)
