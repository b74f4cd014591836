"""users: an account can be disabled

``world_users.disabled_at`` marks an account an owner or admin disabled from the console's
users page: it cannot log in and its sessions are gone until it is enabled again. Its roles
stay, so enabling it gives back what it had (docs/console.md "Usuarios").

Revision ID: 0026_user_disabled
Revises: 0025_knowledge_uploads
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026_user_disabled"
down_revision = "0025_knowledge_uploads"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "world_users", sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    with op.batch_alter_table("world_users") as batch:
        batch.drop_column("disabled_at")
