"""operations: the run's trace id; indexes the retention purge walks

Follows 0003_review (not 0001) because it also indexes ``output_reviews``.

Revision ID: 0008_operations
Revises: 0003_review
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_operations"
down_revision = "0003_review"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("trace_id", sa.String(32), nullable=True))
    op.create_index("ix_runs_conversation", "runs", ["conversation_id"])
    op.create_index("ix_runs_created", "runs", ["created_at"])
    op.create_index("ix_conversations_created", "conversations", ["created_at"])
    op.create_index("ix_output_reviews_conversation", "output_reviews", ["conversation_id"])
    op.create_index("ix_output_reviews_created", "output_reviews", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_output_reviews_created", "output_reviews")
    op.drop_index("ix_output_reviews_conversation", "output_reviews")
    op.drop_index("ix_conversations_created", "conversations")
    op.drop_index("ix_runs_created", "runs")
    op.drop_index("ix_runs_conversation", "runs")
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("trace_id")
