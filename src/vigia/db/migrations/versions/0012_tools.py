"""tools: hosts a workspace's agent tools may call; tool calls and results in messages

Revision ID: 0012_tools
Revises: 0001_foundation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_tools"
down_revision = "0001_foundation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("workspaces", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("tool_hosts", sa.JSON(), nullable=False, server_default=sa.text("'[]'"))
        )
    with op.batch_alter_table("messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tool_calls", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("tool_call_id", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("messages", schema=None) as batch_op:
        batch_op.drop_column("tool_call_id")
        batch_op.drop_column("tool_calls")
    with op.batch_alter_table("workspaces", schema=None) as batch_op:
        batch_op.drop_column("tool_hosts")
