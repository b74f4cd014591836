"""search on PostgreSQL: document frequencies per collection and term

Revision ID: 0015_search_vocabulary
Revises: 0006_search_postgres
"""

from __future__ import annotations

from alembic import op

revision = "0015_search_vocabulary"
down_revision = "0006_search_postgres"
branch_labels = None
depends_on = None

# PostgreSQL only (SQLite reads FTS5's own ``fts5vocab`` table). ``search_vocabulary``: how
# many entries of a collection hold a term, kept by the writes (``vigia.search.postgres``),
# so BM25's document frequencies are index lookups instead of counting postings. The key
# starts with the term: a query looks its terms up across collections. Deleting a collection
# deletes its rows.
VOCABULARY_DDL = (
    "CREATE TABLE search_vocabulary ("
    " term text NOT NULL,"
    " collection varchar(80) NOT NULL,"
    " entries bigint NOT NULL,"
    " CONSTRAINT pk_search_vocabulary PRIMARY KEY (term, collection),"
    " CONSTRAINT fk_search_vocabulary_collection_search_collections FOREIGN KEY (collection)"
    " REFERENCES search_collections (name) ON DELETE CASCADE)"
)
BACKFILL = (
    "INSERT INTO search_vocabulary (term, collection, entries)"
    " SELECT lexeme, collection, count(*)"
    " FROM search_terms CROSS JOIN LATERAL unnest(tsvector_to_array(terms)) AS lexeme"
    " GROUP BY lexeme, collection"
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(VOCABULARY_DDL)
        op.execute(BACKFILL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TABLE IF EXISTS search_vocabulary")
