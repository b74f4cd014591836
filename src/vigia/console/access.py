"""Who is asking and what they may do: the logged-in user and their role in the workspace.

Every console route under ``/console/w/{ws}`` depends on one of ``Reader``,
``ConversationReader``, ``Operator`` or ``Configurer``: a missing session is a 401 (the error
page sends the browser to the login form), a workspace where the user has no role is a 404
(its existence is not revealed), and a role without the permission is a 403.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from vigia.errors import Forbidden, NotFound
from vigia.http.deps import Db
from vigia.users import roles
from vigia.users import service as users
from vigia.users.models import User
from vigia.users.roles import Permission
from vigia.workspaces.models import Workspace
from vigia.workspaces.service import find_workspace


def console_user(request: Request, db: Db) -> User:
    """The user of the session cookie, or 401."""
    return users.user_for_token(db, request.cookies.get(users.COOKIE))


ConsoleUser = Annotated[User, Depends(console_user)]


@dataclass(frozen=True)
class Access:
    """The user, the workspace they are working in, their role there, and every workspace
    they can switch to."""

    user: User
    workspace: Workspace
    role: str
    workspaces: list[tuple[Workspace, str]]

    def can(self, permission: Permission) -> bool:
        return roles.allows(self.role, permission)

    def require(self, permission: Permission) -> None:
        if not self.can(permission):
            raise Forbidden("role")

    @property
    def base(self) -> str:
        """The URL prefix of this workspace's pages."""
        return f"/console/w/{self.workspace.id}"


def workspaces_of(db: Session, user: User) -> list[tuple[Workspace, str]]:
    """The workspaces where ``user`` has a role, by name."""
    found = [(find_workspace(db, m.workspace_id), m.role) for m in roles.memberships(db, user.id)]
    return sorted(found, key=lambda pair: pair[0].name)


def access_to(ws: str, user: User, db: Session) -> Access:
    try:
        workspace = find_workspace(db, ws) if len(ws) <= 64 else None
    except NotFound:
        workspace = None
    role = roles.role_in(db, user.id, workspace.id) if workspace is not None else None
    if workspace is None or role is None:
        raise NotFound("workspace")
    return Access(user, workspace, role, workspaces_of(db, user))


def need(permission: Permission) -> Callable[[str, User, Session], Access]:
    """A dependency: the user's access to workspace ``ws``, which must grant ``permission``."""

    def dependency(ws: str, user: ConsoleUser, db: Db) -> Access:
        access = access_to(ws, user, db)
        access.require(permission)
        return access

    return dependency


Reader = Annotated[Access, Depends(need("read_all"))]
ConversationReader = Annotated[Access, Depends(need("read_conversations"))]
Operator = Annotated[Access, Depends(need("operate"))]
Configurer = Annotated[Access, Depends(need("configure"))]


def home_of(access: Access) -> str:
    """Where a user lands in a workspace: agents, or the inbox for operators."""
    return access.base + ("/agents" if access.can("read_all") else "/inbox")
