"""console: roles of users per workspace, and the last use of each login session

Revision ID: 0014_console_roles
Revises: 0001_foundation
Depends on: 0005_worlds (the users and sessions tables)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_console_roles"
down_revision = "0001_foundation"
branch_labels = None
depends_on = "0005_worlds"


def upgrade() -> None:
    op.create_table(
        "workspace_roles",
        sa.Column("user_id", sa.String(length=36), nullable=False),
        sa.Column("workspace_id", sa.String(length=36), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["world_users.id"],
            name=op.f("fk_workspace_roles_user_id_world_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_workspace_roles_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "workspace_id", name=op.f("pk_workspace_roles")),
    )
    op.create_index("ix_workspace_roles_workspace", "workspace_roles", ["workspace_id"])
    with op.batch_alter_table("world_sessions") as batch:
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("world_sessions") as batch:
        batch.drop_column("last_seen_at")
    op.drop_index("ix_workspace_roles_workspace", table_name="workspace_roles")
    op.drop_table("workspace_roles")
