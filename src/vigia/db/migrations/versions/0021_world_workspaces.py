"""worlds belong to a workspace; runs of worlds turns have no agent

Existing worlds go to the workspace named (by id or name) in ``VIGIA_WORLDS_WORKSPACE``
when it is set at upgrade time; without it they stay unassigned, which nobody can reach
until ``vigia world assign --workspace W`` (docs/worlds.md).

Revision ID: 0021_world_workspaces
Revises: 0020_one_line
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import op

revision = "0021_world_workspaces"
down_revision = "0020_one_line"
branch_labels = None
depends_on = None

WORKSPACE_VARIABLE = "VIGIA_WORLDS_WORKSPACE"


def upgrade() -> None:
    with op.batch_alter_table("worlds") as batch:
        batch.add_column(sa.Column("workspace_id", sa.String(length=36), nullable=True))
        batch.create_foreign_key(
            op.f("fk_worlds_workspace_id_workspaces"),
            "workspaces",
            ["workspace_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index("ix_worlds_workspace", ["workspace_id"])
    with op.batch_alter_table("runs") as batch:
        batch.alter_column("agent_id", existing_type=sa.String(length=36), nullable=True)
    _assign_existing_worlds()


def _assign_existing_worlds() -> None:
    ref = os.environ.get(WORKSPACE_VARIABLE, "").strip()
    if not ref:
        return
    bind = op.get_bind()
    workspace_id = bind.execute(
        sa.text("SELECT id FROM workspaces WHERE id = :ref OR name = :ref"), {"ref": ref}
    ).scalar()
    if workspace_id is None:
        raise RuntimeError(f"{WORKSPACE_VARIABLE}={ref!r}: no workspace has that id or name")
    bind.execute(
        sa.text("UPDATE worlds SET workspace_id = :ws WHERE workspace_id IS NULL"),
        {"ws": workspace_id},
    )


def downgrade() -> None:
    op.execute("DELETE FROM runs WHERE agent_id IS NULL")
    with op.batch_alter_table("runs") as batch:
        batch.alter_column("agent_id", existing_type=sa.String(length=36), nullable=False)
    with op.batch_alter_table("worlds") as batch:
        batch.drop_index("ix_worlds_workspace")
        batch.drop_constraint(op.f("fk_worlds_workspace_id_workspaces"), type_="foreignkey")
        batch.drop_column("workspace_id")
