"""Request shapes of the admin API, and the responses no domain owns (budget usage)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from vigia.kit.wire_types import Timestamp


class WorkspaceCreate(BaseModel):
    name: str = Field(min_length=1, max_length=64)


class ToolHostsUpdate(BaseModel):
    hosts: list[Annotated[str, Field(min_length=1, max_length=253)]] = Field(max_length=100)


class OperatorReply(BaseModel):
    content: str = Field(min_length=1, max_length=20_000)


class UsageOut(BaseModel):
    """This month's spend against the budget; ``alert`` is true once an alert budget is spent."""

    month_start: Timestamp
    spent_usd: float
    budget_usd: float | None
    action: str
    exhausted: bool
    alert: bool
