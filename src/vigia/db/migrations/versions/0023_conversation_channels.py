"""conversations: the channel a conversation came from; messages keep the guardrails' marks

A conversation records its channel (``openai``, ``console``, ``eval``, ``review``), filled
for existing rows from their first run (``review`` for an external agent's thread, else
``openai``). A message records what the input guardrails said of it (``moderation``:
``blocked``, ``flagged``, or ``refusal`` for the reply a blocked message got) and which of
them fired (``guardrails``).

Revision ID: 0023_conversation_channels
Revises: 0022_message_authors
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023_conversation_channels"
down_revision = "0022_message_authors"
branch_labels = None
depends_on = None

BACKFILL = """
UPDATE conversations SET channel = COALESCE(
    (SELECT runs.channel FROM runs WHERE runs.conversation_id = conversations.id
     ORDER BY runs.created_at LIMIT 1),
    CASE WHEN external_id IS NULL THEN 'openai' ELSE 'review' END
)
"""


def upgrade() -> None:
    op.add_column(
        "conversations",
        sa.Column("channel", sa.String(length=16), nullable=False, server_default="openai"),
    )
    op.execute(BACKFILL)
    op.create_index(
        "ix_conversations_workspace_channel", "conversations", ["workspace_id", "channel"]
    )
    op.add_column("messages", sa.Column("moderation", sa.String(length=16), nullable=True))
    op.add_column("messages", sa.Column("guardrails", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("messages") as batch:
        batch.drop_column("guardrails")
        batch.drop_column("moderation")
    op.drop_index("ix_conversations_workspace_channel", table_name="conversations")
    with op.batch_alter_table("conversations") as batch:
        batch.drop_column("channel")
