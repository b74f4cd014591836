"""Queries over the code graph in tables: entity lookup, edges, recursive upstream walks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import literal, select
from sqlalchemy.orm import Session

from vigia.worlds.graph.keys import Kind, name_of, parse_key
from vigia.worlds.models import WorldChunk, WorldEdge, WorldEntity
from vigia.worlds.source import readable

PRIMARY_KINDS = (
    "paragraph",
    "section",
    "data",
    "condition",
    "program",
    "copybook",
    "job",
    "step",
    "dataset",
    "file",
    "definition",
    "proc",
)
UPSTREAM_KINDS = (
    "performs",
    "performs_thru",
    "goes_to",
    "contains",
    "calls",
    "calls_dynamic",
    "executes",
)
MAX_DEPTH = 12


@dataclass(frozen=True)
class Hop:
    """One edge met on a walk, with its distance from the start."""

    kind: str
    src_key: str
    dst_key: str
    path: str
    line: int
    detail: str | None
    depth: int


def entities_named(
    session: Session, world_id: str, names: Iterable[str], kinds: Iterable[str] = PRIMARY_KINDS
) -> list[WorldEntity]:
    """Entities of ``world_id`` whose name is one of ``names`` (upper-case)."""
    names = list(names)
    if not names:
        return []
    query = (
        select(WorldEntity)
        .where(
            WorldEntity.world_id == world_id,
            WorldEntity.name.in_(names),
            WorldEntity.kind.in_(list(kinds)),
        )
        .order_by(WorldEntity.path, WorldEntity.line_start)
    )
    return list(session.scalars(query))


def entities_by_key(session: Session, world_id: str, keys: Iterable[str]) -> list[WorldEntity]:
    keys = list(keys)
    if not keys:
        return []
    query = select(WorldEntity).where(WorldEntity.world_id == world_id, WorldEntity.key.in_(keys))
    return list(session.scalars(query.order_by(WorldEntity.path, WorldEntity.line_start)))


def edges(
    session: Session,
    world_id: str,
    *,
    src: Iterable[str] | None = None,
    dst: Iterable[str] | None = None,
    kinds: Iterable[str] | None = None,
) -> list[WorldEdge]:
    """Edges from any of ``src`` and/or to any of ``dst``, optionally of ``kinds``."""
    query = select(WorldEdge).where(WorldEdge.world_id == world_id)
    if src is not None:
        query = query.where(WorldEdge.src_key.in_(list(src)))
    if dst is not None:
        query = query.where(WorldEdge.dst_key.in_(list(dst)))
    if kinds is not None:
        query = query.where(WorldEdge.kind.in_(list(kinds)))
    return list(session.scalars(query.order_by(WorldEdge.path, WorldEdge.line)))


def upstream(
    session: Session,
    world_id: str,
    keys: Iterable[str],
    kinds: Iterable[str] = UPSTREAM_KINDS,
    max_depth: int = MAX_DEPTH,
) -> list[Hop]:
    """Every edge that (transitively) leads to ``keys``: performers, callers, JCL steps…

    One recursive CTE (``WITH RECURSIVE``, same SQL on SQLite and PostgreSQL)."""
    keys, kinds = list(keys), list(kinds)
    if not keys:
        return []
    edge = WorldEdge.__table__
    base = select(
        edge.c.kind,
        edge.c.src_key,
        edge.c.dst_key,
        edge.c.path,
        edge.c.line,
        edge.c.detail,
        literal(1).label("depth"),
    ).where(edge.c.world_id == world_id, edge.c.dst_key.in_(keys), edge.c.kind.in_(kinds))
    walk = base.cte("walk", recursive=True)
    step_edge = edge.alias("step_edge")
    step = select(
        step_edge.c.kind,
        step_edge.c.src_key,
        step_edge.c.dst_key,
        step_edge.c.path,
        step_edge.c.line,
        step_edge.c.detail,
        (walk.c.depth + 1).label("depth"),
    ).where(
        step_edge.c.world_id == world_id,
        step_edge.c.dst_key == walk.c.src_key,
        step_edge.c.kind.in_(kinds),
        walk.c.depth < max_depth,
    )
    walk = walk.union(step)
    rows = session.execute(select(walk).order_by(walk.c.depth, walk.c.path, walk.c.line))
    seen: set[tuple[str, str, str, int]] = set()
    hops: list[Hop] = []
    for row in rows:
        ident = (row.kind, row.src_key, row.dst_key, row.line)
        if ident not in seen:
            seen.add(ident)
            hops.append(
                Hop(row.kind, row.src_key, row.dst_key, row.path, row.line, row.detail, row.depth)
            )
    return hops


def chunk_at(session: Session, world_id: str, path: str, line: int) -> WorldChunk | None:
    """The indexed passage holding ``path:line`` that starts latest (the most lines before
    it), or None."""
    return session.scalar(
        select(WorldChunk)
        .where(
            WorldChunk.world_id == world_id,
            WorldChunk.path == path,
            WorldChunk.line_start <= line,
            WorldChunk.line_end >= line,
        )
        .order_by(WorldChunk.line_start.desc())
        .limit(1)
    )


def line_text(session: Session, world_id: str, path: str, line: int) -> str:
    """The text of ``path:line`` as indexed (empty if unknown)."""
    chunk = chunk_at(session, world_id, path, line)
    if chunk is None:
        return ""
    lines = chunk.text.splitlines()
    index = line - chunk.line_start
    if not 0 <= index < len(lines):
        return ""
    return readable(lines[index], chunk.fixed)


def label(key: str) -> str:
    """A short display label of a key (``PARA:TAXCALC:CALC-TAX`` → ``TAXCALC.CALC-TAX``)."""
    parsed = parse_key(key)
    if parsed is None or parsed.owner is None or parsed.kind in (Kind.DEF, Kind.DOC):
        return name_of(key)
    if parsed.kind in (Kind.SQL, Kind.CICS):
        return f"EXEC {parsed.kind} in {parsed.owner} line {parsed.name}"
    return f"{parsed.owner}.{parsed.name}"
