"""merge: every branch joins one line, so later revisions have a single parent

Revision ID: 0020_one_line
Revises: 0004_decide, 0007_world_conversation_ids, 0008_operations,
    0009_budget_reservations, 0010_evals, 0011_flagged_messages, 0013_world_search,
    0014_console_roles, 0018_external_threads, 0019_knowledge_versions
"""

from __future__ import annotations

revision = "0020_one_line"
down_revision = (
    "0004_decide",
    "0007_world_conversation_ids",
    "0008_operations",
    "0009_budget_reservations",
    "0010_evals",
    "0011_flagged_messages",
    "0013_world_search",
    "0014_console_roles",
    "0018_external_threads",
    "0019_knowledge_versions",
)
branch_labels = None
depends_on = None


def upgrade() -> None:
    """No schema change: the merge only joins the heads."""


def downgrade() -> None:
    """No schema change: the merge only joins the heads."""
