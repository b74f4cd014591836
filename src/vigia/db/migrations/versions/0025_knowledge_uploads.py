"""knowledge: documents indexed in the background, and the uploads waiting for it

``knowledge_documents.status`` is ``ready`` (every existing document), ``indexing`` or
``failed`` (with ``error_code`` and ``error``); ``progress_done`` / ``progress_total`` count
the chunks the ingest worker has embedded. ``knowledge_uploads`` keeps an upload's bytes
until the worker has indexed it or given up (docs/knowledge.md "Background indexing").

Revision ID: 0025_knowledge_uploads
Revises: 0024_agent_deletion
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_knowledge_uploads"
down_revision = "0024_agent_deletion"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("knowledge_documents") as batch:
        batch.add_column(
            sa.Column("status", sa.String(length=16), server_default="ready", nullable=False)
        )
        batch.add_column(
            sa.Column("progress_done", sa.Integer(), server_default="0", nullable=False)
        )
        batch.add_column(
            sa.Column("progress_total", sa.Integer(), server_default="0", nullable=False)
        )
        batch.add_column(sa.Column("error_code", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("error", sa.String(length=500), nullable=True))
    op.create_table(
        "knowledge_uploads",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("document_id", sa.String(length=36), nullable=False),
        sa.Column("media_type", sa.String(length=100), nullable=True),
        sa.Column("url", sa.String(length=2000), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claim", sa.String(length=36), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["knowledge_documents.id"],
            name=op.f("fk_knowledge_uploads_document_id_knowledge_documents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_knowledge_uploads")),
        sa.UniqueConstraint("document_id", name=op.f("uq_knowledge_uploads_document_id")),
    )


def downgrade() -> None:
    op.drop_table("knowledge_uploads")
    with op.batch_alter_table("knowledge_documents") as batch:
        for column in ("error", "error_code", "progress_total", "progress_done", "status"):
            batch.drop_column(column)
