"""conversations: messages a guardrail blocked during a handoff are stored flagged

Revision ID: 0011_flagged_messages
Revises: 0001_foundation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_flagged_messages"
down_revision = "0001_foundation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "messages",
        sa.Column("flagged", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("flagged")
