"""engine: budget reservations of turns in flight

Revision ID: 0009_budget_reservations
Revises: 0001_foundation
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_budget_reservations"
down_revision = "0001_foundation"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "budget_reservations",
        sa.Column("run_id", sa.String(36), nullable=False),
        sa.Column("workspace_id", sa.String(36), nullable=False),
        sa.Column("amount_usd", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("run_id", name=op.f("pk_budget_reservations")),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_budget_reservations_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
    )
    op.create_index(
        "ix_budget_reservations_workspace", "budget_reservations", ["workspace_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_table("budget_reservations")
