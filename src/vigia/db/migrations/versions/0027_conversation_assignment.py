"""conversations: the operator who holds a handed-off conversation

``conversations.assigned_to`` is the console user who took ("tomar") a conversation in
handoff and ``assigned_at`` when; both are null while nobody holds it and are cleared when
it goes back to the agent (docs/console.md "Bandeja"). Deleting the user frees it.

Revision ID: 0027_conversation_assignment
Revises: 0026_user_disabled
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027_conversation_assignment"
down_revision = "0026_user_disabled"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("conversations") as batch:
        batch.add_column(sa.Column("assigned_to", sa.String(36), nullable=True))
        batch.add_column(sa.Column("assigned_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_foreign_key(
            "fk_conversations_assigned_to_world_users",
            "world_users",
            ["assigned_to"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade() -> None:
    with op.batch_alter_table("conversations") as batch:
        batch.drop_constraint("fk_conversations_assigned_to_world_users", type_="foreignkey")
        batch.drop_column("assigned_at")
        batch.drop_column("assigned_to")
