"""knowledge: knowledge bases, documents, chunks; search collections and entries (+ FTS5)

Revision ID: 0002_knowledge
Revises: 0001_foundation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_knowledge"
down_revision = "0001_foundation"
branch_labels = None
depends_on = None

# SQLite only: the lexical index of search entries (rowid = search_entries.id). The
# PostgreSQL counterpart (tsvector terms with a GIN index) is migration 0006_search_postgres.
FTS_DDL = (
    'CREATE VIRTUAL TABLE search_fts USING fts5(terms, tokenize = "unicode61 remove_diacritics 2")'
)
# How many entries hold each term: lets a query start from its rarest terms.
VOCAB_DDL = "CREATE VIRTUAL TABLE search_fts_vocab USING fts5vocab(search_fts, 'row')"


def upgrade() -> None:
    op.create_table(
        "knowledge_bases",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("workspace_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("description", sa.String(length=2000), nullable=False),
        sa.Column("embedder", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_knowledge_bases_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_knowledge_bases")),
        sa.UniqueConstraint("workspace_id", "name", name="uq_knowledge_bases_workspace_name"),
    )
    op.create_table(
        "knowledge_documents",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("knowledge_base_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("media_type", sa.String(length=100), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=True),
        sa.Column("size_bytes", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("pages", sa.Integer(), nullable=True),
        sa.Column("chunk_count", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["knowledge_base_id"],
            ["knowledge_bases.id"],
            name=op.f("fk_knowledge_documents_knowledge_base_id_knowledge_bases"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_knowledge_documents")),
        sa.UniqueConstraint("knowledge_base_id", "name", name="uq_knowledge_documents_kb_name"),
    )
    op.create_table(
        "knowledge_chunks",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("document_id", sa.String(length=36), nullable=False),
        sa.Column("knowledge_base_id", sa.String(length=36), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("page", sa.Integer(), nullable=True),
        sa.Column("heading", sa.String(length=1000), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["knowledge_documents.id"],
            name=op.f("fk_knowledge_chunks_document_id_knowledge_documents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_knowledge_chunks")),
    )
    op.create_index("ix_knowledge_chunks_document", "knowledge_chunks", ["document_id", "seq"])
    op.create_index("ix_knowledge_chunks_kb", "knowledge_chunks", ["knowledge_base_id"])
    op.create_table(
        "search_collections",
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("dim", sa.Integer(), nullable=False),
        sa.Column("revision", sa.String(length=36), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_search_collections")),
    )
    op.create_table(
        "search_entries",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("collection", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("vector", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_search_entries")),
    )
    op.create_index(
        "ix_search_entries_collection_key", "search_entries", ["collection", "key"], unique=True
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute(FTS_DDL)
        op.execute(VOCAB_DDL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS search_fts_vocab")
        op.execute("DROP TABLE IF EXISTS search_fts")
    op.drop_index("ix_search_entries_collection_key", table_name="search_entries")
    op.drop_table("search_entries")
    op.drop_table("search_collections")
    op.drop_index("ix_knowledge_chunks_kb", table_name="knowledge_chunks")
    op.drop_index("ix_knowledge_chunks_document", table_name="knowledge_chunks")
    op.drop_table("knowledge_chunks")
    op.drop_table("knowledge_documents")
    op.drop_table("knowledge_bases")
