"""worlds: users, sessions, worlds, code graph, chunks (+ SQLite FTS5), conversations

Revision ID: 0005_worlds
Revises: 0001_foundation
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005_worlds"
down_revision = "0001_foundation"
branch_labels = None
depends_on = None

# SQLite only: the full-text index of world chunks (rowid = world_chunks.id). The PostgreSQL
# counterpart (a tsvector column with a GIN index) is a TODO in docs/worlds.md.
FTS_DDL = (
    "CREATE VIRTUAL TABLE world_chunks_fts USING fts5("
    'text, tokenize = "unicode61 remove_diacritics 2")'
)


def _created() -> sa.Column[Any]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "world_users",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        _created(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_users")),
        sa.UniqueConstraint("name", name=op.f("uq_world_users_name")),
    )
    op.create_table(
        "world_sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("user_id", sa.String(36), nullable=False),
        _created(),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["world_users.id"],
            name=op.f("fk_world_sessions_user_id_world_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_world_sessions")),
    )
    op.create_index("ix_world_sessions_user", "world_sessions", ["user_id"])
    op.create_table(
        "worlds",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("files", sa.Integer(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("indexed_at", sa.DateTime(timezone=True), nullable=True),
        _created(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_worlds")),
    )
    op.create_table(
        "world_files",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("world_id", sa.String(64), nullable=False),
        sa.Column("path", sa.String(1024), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("mtime", sa.Float(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("lines", sa.Integer(), nullable=False),
        sa.Column("copies", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["world_id"],
            ["worlds.id"],
            name=op.f("fk_world_files_world_id_worlds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_files")),
        sa.UniqueConstraint("world_id", "path", name="uq_world_files_path"),
    )
    op.create_table(
        "world_chunks",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("world_id", sa.String(64), nullable=False),
        sa.Column("file_id", sa.Integer(), nullable=False),
        sa.Column("path", sa.String(1024), nullable=False),
        sa.Column("line_start", sa.Integer(), nullable=False),
        sa.Column("line_end", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["file_id"],
            ["world_files.id"],
            name=op.f("fk_world_chunks_file_id_world_files"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_chunks")),
    )
    op.create_index("ix_world_chunks_file", "world_chunks", ["file_id"])
    op.create_index("ix_world_chunks_world_path", "world_chunks", ["world_id", "path"])
    op.create_table(
        "world_entities",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("world_id", sa.String(64), nullable=False),
        sa.Column("file_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("program", sa.String(64), nullable=True),
        sa.Column("path", sa.String(1024), nullable=False),
        sa.Column("line_start", sa.Integer(), nullable=False),
        sa.Column("line_end", sa.Integer(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=True),
        sa.Column("origin", sa.String(64), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["file_id"],
            ["world_files.id"],
            name=op.f("fk_world_entities_file_id_world_files"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_entities")),
    )
    op.create_index("ix_world_entities_name", "world_entities", ["world_id", "name"])
    op.create_index("ix_world_entities_key", "world_entities", ["world_id", "key"])
    op.create_index("ix_world_entities_file", "world_entities", ["file_id"])
    op.create_table(
        "world_edges",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("world_id", sa.String(64), nullable=False),
        sa.Column("file_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("src_key", sa.String(300), nullable=False),
        sa.Column("dst_key", sa.String(300), nullable=False),
        sa.Column("path", sa.String(1024), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["file_id"],
            ["world_files.id"],
            name=op.f("fk_world_edges_file_id_world_files"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_edges")),
    )
    op.create_index("ix_world_edges_dst", "world_edges", ["world_id", "dst_key", "kind"])
    op.create_index("ix_world_edges_src", "world_edges", ["world_id", "src_key", "kind"])
    op.create_index("ix_world_edges_file", "world_edges", ["file_id"])
    op.create_table(
        "world_conversations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("owner_id", sa.String(36), nullable=False),
        sa.Column("world_id", sa.String(64), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("pinned", sa.Boolean(), nullable=False),
        sa.Column("origin", sa.String(16), nullable=False),
        sa.Column("source_id", sa.Integer(), nullable=True),
        _created(),
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
    )
    op.create_index("ix_world_conversations_owner", "world_conversations", ["owner_id"])
    op.create_table(
        "world_messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("conversation_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("envelope", sa.JSON(), nullable=True),
        _created(),
        sa.ForeignKeyConstraint(
            ["conversation_id"],
            ["world_conversations.id"],
            name=op.f("fk_world_messages_conversation_id_world_conversations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_messages")),
    )
    op.create_index("ix_world_messages_conversation", "world_messages", ["conversation_id", "id"])
    op.create_table(
        "world_personal_files",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("user_id", sa.String(36), nullable=False),
        sa.Column("rel_path", sa.String(255), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        _created(),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["world_users.id"],
            name=op.f("fk_world_personal_files_user_id_world_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_world_personal_files")),
        sa.UniqueConstraint("user_id", "rel_path", name="uq_world_personal_path"),
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute(FTS_DDL)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS world_chunks_fts")
    op.drop_table("world_personal_files")
    op.drop_index("ix_world_messages_conversation", table_name="world_messages")
    op.drop_table("world_messages")
    op.drop_index("ix_world_conversations_owner", table_name="world_conversations")
    op.drop_table("world_conversations")
    for name in ("ix_world_edges_file", "ix_world_edges_src", "ix_world_edges_dst"):
        op.drop_index(name, table_name="world_edges")
    op.drop_table("world_edges")
    for name in ("ix_world_entities_file", "ix_world_entities_key", "ix_world_entities_name"):
        op.drop_index(name, table_name="world_entities")
    op.drop_table("world_entities")
    op.drop_index("ix_world_chunks_world_path", table_name="world_chunks")
    op.drop_index("ix_world_chunks_file", table_name="world_chunks")
    op.drop_table("world_chunks")
    op.drop_table("world_files")
    op.drop_table("worlds")
    op.drop_index("ix_world_sessions_user", table_name="world_sessions")
    op.drop_table("world_sessions")
    op.drop_table("world_users")
