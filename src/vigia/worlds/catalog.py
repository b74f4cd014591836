"""The world registry: ids, folders, and the scope paths a request may narrow to."""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.errors import Conflict, Invalid, NotFound
from vigia.worlds.models import World, WorldFile

WORLD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
MAX_SCOPE_PATHS = 20
MAX_SCOPE_PATH_LENGTH = 512
MAX_NAME_BYTES = 255  # what a file system allows for one file or folder name (NAME_MAX)


def collection_of(world_id: str) -> str:
    """The search collection of a world's passages."""
    return f"world:{world_id}"


def add_world(
    session: Session, world_id: str, path: str | Path, workspace_id: str | None = None
) -> World:
    """Registers ``path`` (an existing folder) as world ``world_id`` of ``workspace_id``
    (None: unassigned, reached by nobody until ``vigia world assign``)."""
    if not WORLD_ID.match(world_id):
        raise Invalid(f"world id {world_id!r} must match {WORLD_ID.pattern}")
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise Invalid(f"{str(path)!r} is not a folder")
    if session.get(World, world_id) is not None:
        raise Conflict(f"world {world_id!r} already exists")
    world = World(id=world_id, path=str(folder.resolve()), workspace_id=workspace_id)
    session.add(world)
    session.flush()
    return world


def get_world(session: Session, world_id: str) -> World:
    """The world, or 404."""
    world = session.get(World, world_id)
    if world is None:
        raise NotFound(f"world {world_id!r} not found")
    return world


def list_worlds(session: Session) -> list[World]:
    return list(session.scalars(select(World).order_by(World.id)))


def normalise_scope_path(raw: str, what: str = "scope path", within: str = "the world") -> str:
    """A relative POSIX path without ``.``/``..``, whose parts a file system can name; 422 for
    anything malformed. ``what`` and ``within`` name the path in the error (a scope path of the
    world, a file name of one's personal folder)."""
    if not isinstance(raw, str) or not raw.strip():
        raise Invalid(f"{what} must be a non-empty string")
    if len(raw) > MAX_SCOPE_PATH_LENGTH:
        raise Invalid(f"{what} longer than {MAX_SCOPE_PATH_LENGTH} characters")
    value = raw.strip().replace("\\", "/")
    if "\x00" in value or value.startswith("/") or re.match(r"^[A-Za-z]:", value):
        raise Invalid(f"{what} {raw!r} must be relative to {within}")
    parts = [p for p in value.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise Invalid(f"{what} {raw!r} must not contain '..'")
    if not parts:
        raise Invalid(f"{what} {raw!r} names no folder")
    if any(len(p.encode("utf-8")) > MAX_NAME_BYTES for p in parts):
        raise Invalid(f"each part of a path is limited to {MAX_NAME_BYTES} bytes")
    return posixpath.join(*parts)


def _indexed_match(session: Session, world: World, path: str) -> tuple[bool, str | None]:
    """Whether ``path`` is an indexed file or folder of ``world``, compared case-sensitively
    (SQL ``LIKE`` is not, on SQLite), and the differently-cased path it may have meant."""
    prefix = path + "/"
    rows = session.scalars(
        select(WorldFile.path)
        .where(
            WorldFile.world_id == world.id,
            func.lower(WorldFile.path).startswith(prefix.lower(), autoescape=True)
            | (func.lower(WorldFile.path) == path.lower()),
        )
        .limit(200)
    ).all()
    if any(p == path or p.startswith(prefix) for p in rows):
        return True, None
    for other in rows:
        if other.lower() == path.lower():
            return False, other
        if other.lower().startswith(prefix.lower()):
            return False, other[: len(path)]
    return False, None


def _exists_exactly(root: Path, path: str) -> bool:
    """Whether ``root/path`` exists with exactly these names (case included)."""
    folder = root
    for part in path.split("/"):
        try:
            names = set(os.listdir(folder))
        except OSError:
            return False
        if part not in names:
            return False
        folder = folder / part
    return True


def resolve_scope(session: Session, world: World | None, raw_paths: list[str]) -> list[str]:
    """Normalised, de-duplicated scope paths that exist in ``world`` (422 otherwise).

    A scope path must name an indexed file or folder exactly, case included; before the
    world's first index, a file or folder of its directory."""
    if len(raw_paths) > MAX_SCOPE_PATHS:
        raise Invalid(f"at most {MAX_SCOPE_PATHS} scope paths")
    out: list[str] = []
    for raw in raw_paths:
        path = normalise_scope_path(raw)
        if path not in out:
            out.append(path)
    if not out:
        return out
    if world is None:
        raise Invalid("scope paths need an existing world")
    root = Path(world.path)
    for path in out:
        target = (root / path).resolve()
        if target != root.resolve() and root.resolve() not in target.parents:
            raise Invalid(f"scope path {path!r} leaves world {world.id!r}")
        if world.indexed_at is None:
            found, meant = _exists_exactly(root, path), None
        else:
            found, meant = _indexed_match(session, world, path)
        if not found:
            hint = f" (did you mean {meant!r}?)" if meant else ""
            raise Invalid(f"scope path {path!r} does not exist in world {world.id!r}{hint}")
    return out
