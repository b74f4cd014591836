"""Who reaches a world: the users with a role (any role) in its workspace.

Everyone else is told the world does not exist (404), and so are its conversations: a
world's existence is not revealed outside its workspace.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.errors import NotFound
from vigia.users.models import User, WorkspaceRole
from vigia.worlds.models import World


def has_role(session: Session, user_id: str, world: World) -> bool:
    """Whether the user has a role in the world's workspace (never for an unassigned world)."""
    if world.workspace_id is None:
        return False
    return session.get(WorkspaceRole, (user_id, world.workspace_id)) is not None


def member_world(session: Session, user: User, world_id: str) -> World:
    """World ``world_id`` if ``user`` reaches it; 404 when it is missing or not theirs."""
    world = session.get(World, world_id)
    if world is None or not has_role(session, user.id, world):
        raise NotFound(f"world {world_id!r} not found")
    return world


def reachable_world_ids(session: Session, user: User) -> set[str]:
    """The ids of every world in a workspace where ``user`` has a role."""
    workspaces = select(WorkspaceRole.workspace_id).where(WorkspaceRole.user_id == user.id)
    return set(session.scalars(select(World.id).where(World.workspace_id.in_(workspaces))))


def assign(session: Session, worlds: list[World], workspace_id: str) -> list[World]:
    """Moves ``worlds`` (and so their conversations) to the workspace ``workspace_id``."""
    for world in worlds:
        world.workspace_id = workspace_id
    session.flush()
    return worlds


def unassigned(session: Session) -> list[World]:
    """Worlds no workspace owns (registered without one, or their workspace deleted)."""
    return list(
        session.scalars(select(World).where(World.workspace_id.is_(None)).order_by(World.id))
    )
