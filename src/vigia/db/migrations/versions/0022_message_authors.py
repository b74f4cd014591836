"""conversations: an operator's reply names the person who wrote it

Revision ID: 0022_message_authors
Revises: 0021_world_workspaces
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_message_authors"
down_revision = "0021_world_workspaces"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("messages", sa.Column("author", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("author")
