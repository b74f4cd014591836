"""workspace secrets: named upstream keys, encrypted at rest

Revision ID: 0017_workspace_secrets
Revises: 0012_tools
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_workspace_secrets"
down_revision = "0012_tools"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "workspace_secrets",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("workspace_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("sealed", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_workspace_secrets_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_workspace_secrets")),
        sa.UniqueConstraint("workspace_id", "name", name=op.f("uq_workspace_secrets_workspace_id")),
    )


def downgrade() -> None:
    op.drop_table("workspace_secrets")
