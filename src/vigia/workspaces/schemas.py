"""Wire shapes of workspaces and their keys (admin API)."""

from __future__ import annotations

from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

from vigia.kit.fields import Integer, Number
from vigia.kit.wire_types import Timestamp
from vigia.workspaces.models import ApiKey


class WorkspaceOut(BaseModel):
    """A workspace with its monthly budget and the hosts its agents' tools may call."""

    model_config = ConfigDict(from_attributes=True)

    id: str
    name: str
    budget_usd: float | None
    budget_action: str
    tool_hosts: list[str]
    """Hosts its agents' HTTP tools may call (names, ``*.`` suffixes, addresses, networks)."""
    created_at: Timestamp


class WorkspaceList(BaseModel):
    workspaces: list[WorkspaceOut]


class KeyOut(BaseModel):
    """A key as admin listings show it (never the secret)."""

    id: str
    prefix: str
    name: str
    env: str
    scopes: list[str]
    rpm: int
    agent_id: str | None
    created_at: Timestamp
    revoked: bool

    @classmethod
    def of(cls, row: ApiKey, **extra: Any) -> Self:
        """The key's row as shown; ``extra`` fills the fields a subclass adds."""
        return cls(
            id=row.id,
            prefix=row.prefix,
            name=row.name,
            env=row.env,
            scopes=list(row.scopes),
            rpm=row.rpm,
            agent_id=row.agent_id,
            created_at=row.created_at,
            revoked=row.revoked_at is not None,
            **extra,
        )


class IssuedKeyOut(KeyOut):
    """A key at creation: the only response that carries its secret (``key``)."""

    key: str


class KeyList(BaseModel):
    keys: list[KeyOut]


class SecretUpdate(BaseModel):
    """A secret's new value (an upstream key); it is never shown back."""

    value: str = Field(min_length=1, max_length=4096, pattern=r"^[\x21-\x7e]+$")
    """Visible ASCII characters, no spaces (a key goes into an HTTP header)."""


class SecretOut(BaseModel):
    """A workspace secret as listings show it: its name and dates, never its value."""

    model_config = ConfigDict(from_attributes=True)

    name: str
    created_at: Timestamp
    updated_at: Timestamp


class SecretList(BaseModel):
    secrets: list[SecretOut]


class SecretDeletedOut(BaseModel):
    name: str
    deleted: bool


Scope = Literal["chat", "decide", "guardrails:review"]


def _chat_only() -> list[Scope]:
    return ["chat"]


class KeyCreate(BaseModel):
    """A new API key: the admin API and the console both issue keys from this shape."""

    agent: str | None = Field(default=None, max_length=64, description="slug: a channel key")
    env: Literal["production", "draft"] = "production"
    scopes: list[Scope] = Field(default_factory=_chat_only, min_length=1, max_length=3)
    rpm: Integer | None = Field(default=None, ge=1, le=10_000)
    name: str = Field(default="", max_length=64)


class BudgetUpdate(BaseModel):
    """The workspace's monthly budget (None: no limit) and what reaching it does (the admin
    API and the console's Uso page both set it from this shape)."""

    budget_usd: Number | None = Field(default=None, ge=0, le=1_000_000_000)
    action: Literal["pause", "alert"] = "pause"
