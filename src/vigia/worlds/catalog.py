"""The world registry: ids, folders, and the scope paths a request may narrow to."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.errors import Conflict, Invalid, NotFound
from vigia.worlds.models import World, WorldFile

WORLD_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
MAX_SCOPE_PATHS = 20
MAX_SCOPE_PATH_LENGTH = 512
MAX_NAME_BYTES = 255  # what a file system allows for one file or folder name (NAME_MAX)


def add_world(session: Session, world_id: str, path: str | Path) -> World:
    """Registers ``path`` (an existing folder) as world ``world_id``."""
    if not WORLD_ID.match(world_id):
        raise Invalid(f"world id {world_id!r} must match {WORLD_ID.pattern}")
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise Invalid(f"{str(path)!r} is not a folder")
    if session.get(World, world_id) is not None:
        raise Conflict(f"world {world_id!r} already exists")
    world = World(id=world_id, path=str(folder.resolve()))
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


def normalise_scope_path(raw: str) -> str:
    """A relative POSIX path without ``.``/``..``, whose parts a file system can name; 422 for
    anything malformed."""
    if not isinstance(raw, str) or not raw.strip():
        raise Invalid("scope path must be a non-empty string")
    if len(raw) > MAX_SCOPE_PATH_LENGTH:
        raise Invalid(f"scope path longer than {MAX_SCOPE_PATH_LENGTH} characters")
    value = raw.strip().replace("\\", "/")
    if "\x00" in value or value.startswith("/") or re.match(r"^[A-Za-z]:", value):
        raise Invalid(f"scope path {raw!r} must be relative to the world")
    parts = [p for p in value.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise Invalid(f"scope path {raw!r} must not contain '..'")
    if not parts:
        raise Invalid(f"scope path {raw!r} names no folder")
    if any(len(p.encode("utf-8")) > MAX_NAME_BYTES for p in parts):
        raise Invalid(f"each part of a path is limited to {MAX_NAME_BYTES} bytes")
    return posixpath.join(*parts)


def resolve_scope(session: Session, world: World | None, raw_paths: list[str]) -> list[str]:
    """Normalised, de-duplicated scope paths that exist in ``world`` (422 otherwise)."""
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
        indexed = session.scalar(
            select(WorldFile.id)
            .where(
                WorldFile.world_id == world.id,
                (WorldFile.path == path) | WorldFile.path.startswith(path + "/", autoescape=True),
            )
            .limit(1)
        )
        target = (root / path).resolve()
        inside = target == root.resolve() or root.resolve() in target.parents
        if indexed is None and not (inside and target.exists()):
            raise Invalid(f"scope path {path!r} does not exist in world {world.id!r}")
        if not inside:
            raise Invalid(f"scope path {path!r} leaves world {world.id!r}")
    return out
