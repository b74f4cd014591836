"""worlds: chunks on the shared search stack (one collection per world)

Revision ID: 0013_world_search
Revises: 0001_foundation (after 0005_worlds)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_world_search"
down_revision = "0001_foundation"
branch_labels = None
depends_on = ("0005_worlds",)

# World chunks move to ``vigia.search`` (collection ``world:<id>``, code analyzer, dense
# vectors), so the worlds' own FTS5 table goes. Chunks gain what retrieval needs: their
# kind, the graph entity they belong to, a title and whether the file is fixed-format
# COBOL. The graph extraction changed too (CICS, SQL, CSD, BMS, INCLUDE, REPLACE…): every
# world's derived rows are cleared and the world is marked not indexed, so chat answers
# 409 until `vigia world index ID` has run again. Registered folders, users, conversations
# and personal files are kept.


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE IF EXISTS world_chunks_fts")
    op.execute("DELETE FROM world_chunks")
    op.execute("DELETE FROM world_edges")
    op.execute("DELETE FROM world_entities")
    op.execute("DELETE FROM world_files")
    op.execute("UPDATE worlds SET indexed_at = NULL, files = 0, lines = 0")
    with op.batch_alter_table("world_chunks") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="text"))
        batch.add_column(sa.Column("entity_key", sa.String(300), nullable=True))
        batch.add_column(sa.Column("title", sa.String(300), nullable=False, server_default=""))
        batch.add_column(
            sa.Column("fixed", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("world_chunks") as batch:
        batch.drop_column("fixed")
        batch.drop_column("title")
        batch.drop_column("entity_key")
        batch.drop_column("kind")
