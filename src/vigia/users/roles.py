"""Roles of users per workspace, and what each role may do.

- ``owner`` and ``admin``: everything in the workspace (agents, knowledge, keys, budget,
  evaluation, conversations). Only an owner grants the owner role.
- ``operator``: conversations and the inbox: reads them, takes them over, replies, releases.
- ``viewer``: reads every section and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from vigia.errors import Invalid
from vigia.users.models import WorkspaceRole

Role = Literal["owner", "admin", "operator", "viewer"]
ROLES: tuple[str, ...] = get_args(Role)
Permission = Literal["configure", "operate", "read_all", "read_conversations"]

_GRANTS: dict[str, frozenset[str]] = {
    "owner": frozenset({"configure", "operate", "read_all", "read_conversations"}),
    "admin": frozenset({"configure", "operate", "read_all", "read_conversations"}),
    "operator": frozenset({"operate", "read_conversations"}),
    "viewer": frozenset({"read_all", "read_conversations"}),
}


def allows(role: str, permission: Permission) -> bool:
    """Whether ``role`` grants ``permission`` (an unknown role grants nothing)."""
    return permission in _GRANTS.get(role, frozenset())


@dataclass(frozen=True)
class Membership:
    """A user's role in one workspace."""

    workspace_id: str
    role: str


def grant(session: Session, user_id: str, workspace_id: str, role: str) -> Membership:
    """Gives the user ``role`` in the workspace (replacing any role they had there)."""
    if role not in ROLES:
        raise Invalid(f"role must be one of: {', '.join(ROLES)}")
    row = session.get(WorkspaceRole, (user_id, workspace_id))
    if row is None:
        session.add(WorkspaceRole(user_id=user_id, workspace_id=workspace_id, role=role))
    else:
        row.role = role
    session.flush()
    return Membership(workspace_id, role)


def revoke(session: Session, user_id: str, workspace_id: str) -> None:
    """Removes the user's role in the workspace."""
    session.execute(
        delete(WorkspaceRole).where(
            WorkspaceRole.user_id == user_id, WorkspaceRole.workspace_id == workspace_id
        )
    )


def role_in(session: Session, user_id: str, workspace_id: str) -> str | None:
    """The user's role in the workspace, or None."""
    row = session.get(WorkspaceRole, (user_id, workspace_id))
    return row.role if row is not None else None


def memberships(session: Session, user_id: str) -> list[Membership]:
    """Every workspace where the user has a role."""
    rows = session.scalars(select(WorkspaceRole).where(WorkspaceRole.user_id == user_id))
    return [Membership(r.workspace_id, r.role) for r in rows]
