"""worlds: conversation ids are never reused (SQLite AUTOINCREMENT)

Revision ID: 0007_world_conversation_ids
Revises: 0005_worlds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_world_conversation_ids"
down_revision = "0005_worlds"
branch_labels = None
depends_on = None

# Without AUTOINCREMENT SQLite gives a new row max(id) + 1, so deleting the newest
# conversation hands its id to the next one, possibly another user's. PostgreSQL's serial
# column draws from a sequence that never goes back: nothing to do there.
#
# SQLite can only add AUTOINCREMENT by rebuilding the table. The rebuild cannot switch
# foreign keys off (PRAGMA foreign_keys is ignored inside the migration's transaction), so
# dropping the old table cascades to messages and to share wrappers: both are saved to
# temporary tables first and put back, with their ids, after the rebuild.
CONVERSATION_COLUMNS = (
    "id, owner_id, world_id, title, pinned, origin, source_id, created_at, updated_at"
)
MESSAGE_COLUMNS = "id, conversation_id, role, content, envelope, created_at"


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.execute(
        f"CREATE TEMP TABLE saved_conversations AS"
        f" SELECT {CONVERSATION_COLUMNS} FROM world_conversations"
    )
    op.execute(f"CREATE TEMP TABLE saved_messages AS SELECT {MESSAGE_COLUMNS} FROM world_messages")
    op.drop_index("ix_world_conversations_owner", table_name="world_conversations")
    op.drop_table("world_conversations")
    _create_conversations()
    op.execute(
        f"INSERT INTO world_conversations ({CONVERSATION_COLUMNS})"
        f" SELECT {CONVERSATION_COLUMNS} FROM saved_conversations"
        " ORDER BY source_id IS NOT NULL, id"
    )
    op.execute("DELETE FROM world_messages")
    op.execute(
        f"INSERT INTO world_messages ({MESSAGE_COLUMNS})"
        f" SELECT {MESSAGE_COLUMNS} FROM saved_messages ORDER BY id"
    )
    op.execute("DROP TABLE saved_conversations")
    op.execute("DROP TABLE saved_messages")


def _create_conversations() -> None:
    op.create_table(
        "world_conversations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("owner_id", sa.String(36), nullable=False),
        sa.Column("world_id", sa.String(64), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("pinned", sa.Boolean(), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["world_users.id"],
            name=op.f("fk_world_conversations_owner_id_world_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["source_id"],
            ["world_conversations.id"],
            name=op.f("fk_world_conversations_source_id_world_conversations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_conversations")),
        sa.UniqueConstraint("owner_id", "source_id", name="uq_world_conversations_share"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_world_conversations_owner", "world_conversations", ["owner_id"])


def downgrade() -> None:
    # AUTOINCREMENT only stops id reuse; the older code reads and writes the table unchanged.
    pass
