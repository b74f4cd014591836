"""knowledge versions: document revisions, so published agent versions pin their knowledge

Revision ID: 0019_knowledge_versions
Revises: 0017_workspace_secrets, 0016_search_postings (a merge: it needs both)

Every existing document becomes one revision (id = the document's id, its chunks in the
base's collection ``kb:<id>``) live since the epoch, so every existing version keeps
reading what it read before. ``agent_versions.knowledge_at`` is set by rollbacks only.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0019_knowledge_versions"
down_revision = ("0017_workspace_secrets", "0016_search_postings")
branch_labels = None
# A merge: 0016 brings the knowledge tables (0002) and the search tables the entries move between.
depends_on = None

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def upgrade() -> None:
    op.create_table(
        "knowledge_revisions",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("knowledge_base_id", sa.String(length=36), nullable=False),
        sa.Column("document_id", sa.String(length=36), nullable=False),
        sa.Column("collection", sa.String(length=80), nullable=False),
        sa.Column("added_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["knowledge_base_id"],
            ["knowledge_bases.id"],
            name=op.f("fk_knowledge_revisions_knowledge_base_id_knowledge_bases"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["knowledge_documents.id"],
            name=op.f("fk_knowledge_revisions_document_id_knowledge_documents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_knowledge_revisions")),
    )
    op.create_index(
        "ix_knowledge_revisions_kb", "knowledge_revisions", ["knowledge_base_id", "removed_at"]
    )
    with op.batch_alter_table("knowledge_chunks", recreate="never") as batch:
        batch.add_column(sa.Column("revision_id", sa.String(length=36), nullable=True))
    op.create_index("ix_knowledge_chunks_revision_id", "knowledge_chunks", ["revision_id"])
    with op.batch_alter_table("agent_versions", recreate="never") as batch:
        batch.add_column(sa.Column("knowledge_at", sa.DateTime(timezone=True), nullable=True))
    documents = sa.table(
        "knowledge_documents",
        sa.column("id", sa.String()),
        sa.column("knowledge_base_id", sa.String()),
    )
    revisions = sa.table(
        "knowledge_revisions",
        sa.column("id", sa.String()),
        sa.column("knowledge_base_id", sa.String()),
        sa.column("document_id", sa.String()),
        sa.column("collection", sa.String()),
        sa.column("added_at", sa.DateTime(timezone=True)),
    )
    op.execute(
        revisions.insert().from_select(
            ["id", "knowledge_base_id", "document_id", "collection", "added_at"],
            sa.select(
                documents.c.id,
                documents.c.knowledge_base_id,
                documents.c.id,
                sa.literal("kb:") + documents.c.knowledge_base_id,
                sa.literal(EPOCH, sa.DateTime(timezone=True)),
            ),
        )
    )
    op.execute("UPDATE knowledge_chunks SET revision_id = document_id")


def downgrade() -> None:
    with op.batch_alter_table("agent_versions", recreate="never") as batch:
        batch.drop_column("knowledge_at")
    op.drop_index("ix_knowledge_chunks_revision_id", "knowledge_chunks")
    with op.batch_alter_table("knowledge_chunks", recreate="never") as batch:
        batch.drop_column("revision_id")
    op.drop_index("ix_knowledge_revisions_kb", "knowledge_revisions")
    op.drop_table("knowledge_revisions")
