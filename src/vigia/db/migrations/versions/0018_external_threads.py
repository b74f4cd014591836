"""conversations: an external agent's own conversation id, unique per (workspace, agent)

Revision ID: 0018_external_threads
Revises: 0017_workspace_secrets
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_external_threads"
down_revision = "0017_workspace_secrets"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("conversations") as batch:
        batch.add_column(sa.Column("external_id", sa.String(64), nullable=True))
        batch.create_unique_constraint(
            "uq_conversations_external", ["workspace_id", "agent_id", "external_id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("conversations") as batch:
        batch.drop_constraint("uq_conversations_external", type_="unique")
        batch.drop_column("external_id")
