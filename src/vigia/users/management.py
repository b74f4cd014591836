"""The people of a workspace, as its owners and admins manage them (the console's users
page): adding a user with a role, changing roles, disabling an account, setting a password.

Who may change whom: only an owner grants the owner role or changes an owner; nobody
changes their own role or disables themselves. Disabling and passwords act on the account,
which may work in other workspaces too: the one acting must be owner or admin of every
workspace the account has a role in (owner where the account is an owner)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.errors import Forbidden, NotFound
from vigia.users import roles
from vigia.users.models import User, WorkspaceRole
from vigia.users.service import create_user, get_user, set_disabled, set_password

RUNS = ("owner", "admin")
"""The roles that manage a workspace's people."""


@dataclass(frozen=True)
class Member:
    """A user with their role in the workspace."""

    user: User
    role: str


def members(session: Session, workspace_id: str) -> list[Member]:
    """Everyone with a role in the workspace, by name."""
    rows = session.execute(
        select(User, WorkspaceRole.role)
        .join(WorkspaceRole, WorkspaceRole.user_id == User.id)
        .where(WorkspaceRole.workspace_id == workspace_id)
        .order_by(User.name)
    )
    return [Member(user, role) for user, role in rows]


def member(session: Session, workspace_id: str, user_id: str) -> Member:
    """A user of the workspace by id; users of other workspaces are not found."""
    user = get_user(session, user_id) if len(user_id) <= 64 else None
    role = roles.role_in(session, user.id, workspace_id) if user is not None else None
    if user is None or role is None:
        raise NotFound("user not found")
    return Member(user, role)


def _owner_only(actor_role: str | None, *involved: str) -> None:
    if "owner" in involved and actor_role != "owner":
        raise Forbidden("owner")


def add_member(
    session: Session, workspace_id: str, actor: User, name: str, password: str, role: str
) -> Member:
    """A new user with ``role`` in the workspace."""
    _owner_only(roles.role_in(session, actor.id, workspace_id), role)
    user = create_user(session, name, password)
    return Member(user, roles.grant(session, user.id, workspace_id, role).role)


def change_role(
    session: Session, workspace_id: str, actor: User, target: Member, role: str
) -> Member:
    """Gives ``target`` another role in the workspace."""
    if actor.id == target.user.id:
        raise Forbidden("self")
    _owner_only(roles.role_in(session, actor.id, workspace_id), role, target.role)
    return Member(target.user, roles.grant(session, target.user.id, workspace_id, role).role)


def _controls_account(session: Session, actor: User, target: User) -> None:
    """Raises ``Forbidden`` unless ``actor`` runs every workspace of ``target``."""
    for membership in roles.memberships(session, target.id):
        mine = roles.role_in(session, actor.id, membership.workspace_id)
        if mine not in RUNS:
            raise Forbidden("elsewhere")
        _owner_only(mine, membership.role)


def disable(session: Session, actor: User, target: Member, disabled: bool = True) -> None:
    """Disables ``target``'s account (``disabled=False``: enables it again)."""
    if actor.id == target.user.id:
        raise Forbidden("self")
    _controls_account(session, actor, target.user)
    set_disabled(session, target.user, disabled)


def reset_password(session: Session, actor: User, target: Member, password: str) -> None:
    """Sets ``target``'s password; every session of the account ends."""
    _controls_account(session, actor, target.user)
    set_password(session, target.user, password)
