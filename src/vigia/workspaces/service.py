"""Workspaces and keys: create, find, revoke, budgets."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from vigia.config import get_settings
from vigia.db.base import utcnow
from vigia.egress import MAX_ENTRIES, normalize_entry
from vigia.errors import Conflict, Invalid, NotFound
from vigia.workspaces.auth import SCOPES
from vigia.workspaces.keys import display_prefix, generate_key, hash_key
from vigia.workspaces.models import ApiKey, Workspace
from vigia.workspaces.revocation import advance_after_commit

MAX_RPM = 10_000


def create_workspace(session: Session, name: str) -> Workspace:
    """A new workspace; names are unique."""
    name = name.strip()
    if not name or len(name) > 64:
        raise Invalid("workspace name must be 1 to 64 characters")
    if session.scalars(select(Workspace).where(Workspace.name == name)).first():
        raise Conflict(f"workspace '{name}' already exists")
    workspace = Workspace(name=name)
    session.add(workspace)
    session.flush()
    return workspace


def list_workspaces(session: Session) -> list[Workspace]:
    """Every workspace, by name."""
    return list(session.scalars(select(Workspace).order_by(Workspace.name)))


def find_workspace(session: Session, ref: str) -> Workspace:
    """A workspace by id or by name."""
    row = session.scalars(
        select(Workspace).where(or_(Workspace.id == ref, Workspace.name == ref))
    ).first()
    if row is None:
        raise NotFound(f"workspace '{ref}' not found")
    return row


def set_budget(
    session: Session, workspace: Workspace, budget_usd: float | None, action: str
) -> Workspace:
    """Sets the monthly budget (None removes it) and what happens when it is reached."""
    if action not in ("pause", "alert"):
        raise Invalid("budget action must be 'pause' or 'alert'")
    if budget_usd is not None and budget_usd < 0:
        raise Invalid("budget must be zero or more")
    workspace.budget_usd = budget_usd
    workspace.budget_action = action
    session.flush()
    return workspace


def set_tool_hosts(session: Session, workspace: Workspace, hosts: list[str]) -> Workspace:
    """Sets the hosts the workspace's agent tools may call (docs/tools.md); [] allows none."""
    if len(hosts) > MAX_ENTRIES:
        raise Invalid(f"at most {MAX_ENTRIES} tool hosts")
    try:
        normalized = [normalize_entry(h) for h in hosts]
    except ValueError as error:
        raise Invalid(str(error)) from None
    workspace.tool_hosts = list(dict.fromkeys(normalized))
    session.flush()
    return workspace


@dataclass(frozen=True)
class IssuedKey:
    """A key as shown once, at creation."""

    row: ApiKey
    secret: str


def create_key(
    session: Session,
    workspace: Workspace,
    *,
    agent_id: str | None = None,
    env: str = "production",
    scopes: list[str] | None = None,
    rpm: int | None = None,
    name: str = "",
) -> IssuedKey:
    """A workspace key (every agent) or a channel key (one agent); the secret is returned once."""
    if env not in ("production", "draft"):
        raise Invalid("env must be 'production' or 'draft'")
    scopes = list(dict.fromkeys(scopes or ["chat"]))
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown:
        raise Invalid(f"unknown scope(s): {', '.join(unknown)}; known: {', '.join(SCOPES)}")
    settings = get_settings()
    if rpm is None:
        rpm = settings.channel_key_rpm if agent_id else settings.workspace_key_rpm
    if not 1 <= rpm <= MAX_RPM:
        raise Invalid(f"rpm must be between 1 and {MAX_RPM}")
    secret = generate_key()
    row = ApiKey(
        workspace_id=workspace.id,
        agent_id=agent_id,
        env=env,
        scopes=scopes,
        rpm=rpm,
        hash=hash_key(secret),
        prefix=display_prefix(secret),
        name=name[:64],
    )
    session.add(row)
    session.flush()
    return IssuedKey(row=row, secret=secret)


def revoke_key(session: Session, workspace: Workspace, key_id: str) -> ApiKey:
    """Revokes a key of the workspace; once the session commits, later calls with it get 401
    on every replica (before the revoking request answers)."""
    row = session.get(ApiKey, key_id)
    if row is None or row.workspace_id != workspace.id:
        raise NotFound("key not found")
    if row.revoked_at is None:
        row.revoked_at = utcnow()
    session.flush()
    advance_after_commit(session)  # cached copies, on every replica, stop serving it
    return row


def revoke_agent_keys(session: Session, workspace: Workspace, agent_id: str) -> int:
    """Revokes every live channel key of the agent (as ``revoke_key`` does, at once on every
    replica once the session commits); returns how many it revoked."""
    rows = session.scalars(
        select(ApiKey).where(
            ApiKey.workspace_id == workspace.id,
            ApiKey.agent_id == agent_id,
            ApiKey.revoked_at.is_(None),
        )
    ).all()
    now = utcnow()
    for row in rows:
        row.revoked_at = now
    session.flush()
    advance_after_commit(session)
    return len(rows)


def list_keys(session: Session, workspace: Workspace) -> list[ApiKey]:
    return list(
        session.scalars(
            select(ApiKey).where(ApiKey.workspace_id == workspace.id).order_by(ApiKey.created_at)
        )
    )
