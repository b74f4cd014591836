"""Tables of the decisions domain: tokens used per workspace per calendar month (UTC)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, utcnow


class DecideUsage(Base):
    """Tokens a workspace's decide and systemone requests read in one month (``YYYY-MM``)."""

    __tablename__ = "decide_usage"

    workspace_id: Mapped[str] = mapped_column(
        ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    month: Mapped[str] = mapped_column(String(7), primary_key=True)
    tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
