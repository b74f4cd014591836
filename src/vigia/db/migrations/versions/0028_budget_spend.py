"""budget_spend: the spend ledger, USD per workspace and month (UTC)

The budget used to sum the month's runs on every turn; ``budget_spend`` keeps that sum, one
row per ``(workspace, YYYY-MM)``, added to as each run is stored (``vigia.engine.spend``).
The upgrade fills it from the runs already stored.

Revision ID: 0028_budget_spend
Revises: 0027_conversation_assignment
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028_budget_spend"
down_revision = "0027_conversation_assignment"
branch_labels = None
depends_on = None

# The month of a run's ``created_at`` (UTC): SQLite stores the UTC time as text.
MONTH_OF_RUN = {
    "sqlite": "strftime('%Y-%m', created_at)",
    "postgresql": "to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM')",
}


def upgrade() -> None:
    op.create_table(
        "budget_spend",
        sa.Column("workspace_id", sa.String(36), nullable=False),
        sa.Column("month", sa.String(7), nullable=False),
        sa.Column("spent_usd", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("workspace_id", "month", name=op.f("pk_budget_spend")),
        sa.ForeignKeyConstraint(
            ["workspace_id"],
            ["workspaces.id"],
            name=op.f("fk_budget_spend_workspace_id_workspaces"),
            ondelete="CASCADE",
        ),
    )
    month = MONTH_OF_RUN[op.get_bind().dialect.name]
    op.execute(
        "INSERT INTO budget_spend (workspace_id, month, spent_usd)"
        f" SELECT workspace_id, {month}, sum(cost_usd) FROM runs"
        f" WHERE cost_usd > 0 GROUP BY workspace_id, {month}"
    )


def downgrade() -> None:
    op.drop_table("budget_spend")
