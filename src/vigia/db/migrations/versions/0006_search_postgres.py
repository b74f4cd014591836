"""search on PostgreSQL: the lexical index of search entries (tsvector + GIN)

Revision ID: 0006_search_postgres
Revises: 0002_knowledge
"""

from __future__ import annotations

from alembic import op

revision = "0006_search_postgres"
down_revision = "0002_knowledge"
branch_labels = None
depends_on = None

# PostgreSQL only (SQLite has the FTS5 tables of 0002_knowledge). ``search_terms``: one row
# per search entry with its folded, stemmed words (``vigia.search.text.index_terms``) as a
# ``simple`` tsvector under a GIN index, how many words that is (BM25 weighs it against the
# average) and its collection (filtered without a join). Deleting an entry deletes its row.
TERMS_DDL = (
    "CREATE TABLE search_terms ("
    " entry_id integer NOT NULL,"
    " collection varchar(80) NOT NULL,"
    " size integer NOT NULL,"
    " terms tsvector NOT NULL,"
    " CONSTRAINT pk_search_terms PRIMARY KEY (entry_id),"
    " CONSTRAINT fk_search_terms_entry_id_search_entries FOREIGN KEY (entry_id)"
    " REFERENCES search_entries (id) ON DELETE CASCADE)"
)
GIN_DDL = "CREATE INDEX ix_search_terms_terms ON search_terms USING gin (terms)"
# ``search_totals``: entries and words per collection, kept by every write (BM25's entry
# count and average length without scanning ``search_terms``; the collection's row in
# ``search_collections`` is updated by the same writes, so this adds no lock contention).
TOTALS_DDL = (
    "CREATE TABLE search_totals ("
    " collection varchar(80) NOT NULL,"
    " entries bigint NOT NULL,"
    " words bigint NOT NULL,"
    " CONSTRAINT pk_search_totals PRIMARY KEY (collection),"
    " CONSTRAINT fk_search_totals_collection_search_collections FOREIGN KEY (collection)"
    " REFERENCES search_collections (name) ON DELETE CASCADE)"
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(TERMS_DDL)
        op.execute(GIN_DDL)
        op.execute(TOTALS_DDL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TABLE IF EXISTS search_totals")
        op.execute("DROP TABLE IF EXISTS search_terms")
