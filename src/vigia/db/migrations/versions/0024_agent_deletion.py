"""agents: a deleted agent keeps its rows; a version records who published it; runs by key

``agents.deleted_at`` marks an agent deleted from the console: it is gone from every list
and lookup, its keys are revoked, and its conversations and runs stay until the retention
purge (docs/operations.md). ``agent_versions.published_by`` names who published a version
(a console user, ``cli`` or ``admin-api``); older versions have none. ``ix_runs_key``
finds a key's last turn (the console's keys page shows it).

Revision ID: 0024_agent_deletion
Revises: 0023_conversation_channels
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024_agent_deletion"
down_revision = "0023_conversation_channels"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("agents", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("agent_versions", sa.Column("published_by", sa.String(length=64), nullable=True))
    op.create_index("ix_runs_key", "runs", ["key_id", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_runs_key", table_name="runs")
    with op.batch_alter_table("agent_versions") as batch:
        batch.drop_column("published_by")
    with op.batch_alter_table("agents") as batch:
        batch.drop_column("deleted_at")
