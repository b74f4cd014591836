"""What the database holds, to assert that a refused request stored nothing."""

from __future__ import annotations

from sqlalchemy import func, select

import vigia.db.registry  # noqa: F401  (every domain's tables in Base.metadata)
from vigia.db.base import Base
from vigia.db.session import session_scope


def row_counts() -> dict[str, int]:
    """Rows in every table of the schema."""
    with session_scope() as session:
        return {
            table.name: session.scalar(select(func.count()).select_from(table)) or 0
            for table in Base.metadata.sorted_tables
        }
