"""Tables: runs (one agent turn), their traced stages, budget reservations and the spend
ledger."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from vigia.db.base import Base, created_column, id_column


class Run(Base):
    __tablename__ = "runs"
    __table_args__ = (
        Index("ix_runs_workspace_created", "workspace_id", "created_at"),
        Index("ix_runs_conversation", "conversation_id"),
        Index("ix_runs_created", "created_at"),
        Index("ix_runs_key", "key_id", "created_at"),
    )

    id: Mapped[str] = id_column()
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    agent_id: Mapped[str | None] = mapped_column(
        ForeignKey("agents.id", ondelete="CASCADE"), default=None
    )
    """None for a turn of a channel without agents (``worlds``)."""
    conversation_id: Mapped[str | None] = mapped_column(String(36), default=None)
    key_id: Mapped[str | None] = mapped_column(String(36), default=None)
    channel: Mapped[str] = mapped_column(String(16), default="openai")
    env: Mapped[str] = mapped_column(String(16), default="production")
    version: Mapped[int | None] = mapped_column(default=None)
    status: Mapped[str] = mapped_column(String(32), default="ok")
    model: Mapped[str] = mapped_column(String(128), default="")
    prompt_tokens: Mapped[int] = mapped_column(default=0)
    completion_tokens: Mapped[int] = mapped_column(default=0)
    cost_usd: Mapped[float] = mapped_column(default=0.0)
    budget_alert: Mapped[bool] = mapped_column(default=False)
    streamed: Mapped[bool] = mapped_column(default=False)
    duration_ms: Mapped[float] = mapped_column(default=0.0)
    error: Mapped[str | None] = mapped_column(Text, default=None)
    trace_id: Mapped[str | None] = mapped_column(String(32), default=None)
    """The OpenTelemetry trace the run was served in (None while tracing is off)."""
    created_at: Mapped[datetime] = created_column()


class RunStage(Base):
    __tablename__ = "run_stages"
    __table_args__ = (Index("ix_run_stages_run", "run_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    run_id: Mapped[str] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    seq: Mapped[int]
    name: Mapped[str] = mapped_column(String(32))
    started_at: Mapped[datetime]
    duration_ms: Mapped[float]
    outcome: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any]] = mapped_column(default=dict)


class BudgetReservation(Base):
    """Expected cost of a turn in flight, held against its workspace's budget until settled."""

    __tablename__ = "budget_reservations"
    __table_args__ = (Index("ix_budget_reservations_workspace", "workspace_id", "created_at"),)

    run_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id", ondelete="CASCADE"))
    amount_usd: Mapped[float] = mapped_column(Float)  # FLOAT, as 0009 created it
    created_at: Mapped[datetime] = created_column()


class BudgetSpend(Base):
    """USD a workspace's runs cost in one month (UTC), kept as runs are stored
    (``vigia.engine.spend``)."""

    __tablename__ = "budget_spend"

    workspace_id: Mapped[str] = mapped_column(
        ForeignKey("workspaces.id", ondelete="CASCADE"), primary_key=True
    )
    month: Mapped[str] = mapped_column(String(7), primary_key=True)
    """``YYYY-MM``."""
    spent_usd: Mapped[float] = mapped_column(default=0.0)
