"""Graph facts in words, added to the texts passages are embedded with: what a paragraph
does to tables, files, queues and other programs ("inserts into table customer secure"),
and for a program's header, the screens it shows (their titles and options) and the
transactions it starts — the words a business question uses for what code is for."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.worlds.graph.keys import Kind, is_kind, name_of, parse_key, program_key
from vigia.worlds.ingest.chunks import name_words
from vigia.worlds.models import WorldEdge, WorldEntity

ROLE_KINDS = ("sends", "receives", "starts")
MAX_FACTS = 6
_SQL = {"SQL INSERT": "inserts into", "SQL UPDATE": "updates", "SQL DELETE": "deletes from"}
_CICS = {"CICS REWRITE": "rewrites", "CICS DELETE": "deletes from", "CICS WRITE": "writes"}


def phrase(edge: WorldEdge, screens: dict[str, str]) -> str | None:
    """One edge as words, or None for edges that say nothing about purpose."""
    parsed = parse_key(edge.dst_key)
    if parsed is None:
        return None
    kind, name = parsed.kind, parsed.name
    words = name_words(name_of(name))
    detail = edge.detail or ""
    if kind is Kind.TABLE:
        verb = _SQL.get(detail, "reads" if edge.kind == "reads" else "writes")
        return f"{verb} table {words}"
    if kind is Kind.FILE:
        return f"{_CICS.get(detail, edge.kind)} file {words}"
    if kind is Kind.QUEUE:
        return f"{edge.kind} queue {words}"
    if kind is Kind.COUNTER:
        return f"gets counter {words}"
    if kind is Kind.PGM and edge.kind in ("calls", "calls_dynamic"):
        return f"calls {name.lower()}"
    if kind is Kind.TRAN:
        return f"starts transaction {name.lower()}"
    if kind is Kind.MAP:
        return f"screen {screens.get(edge.dst_key) or words}"
    if kind is Kind.ABEND:
        return f"abends {name.lower()}"
    return None


def fact_words(session: Session, world_id: str, keys: set[str]) -> dict[str, str]:
    """For each entity key, its facts in words (programs: the screens and transactions)."""
    if not keys:
        return {}
    screens = {
        key: (detail or "").split(":", 1)[-1].replace(";", ",")
        for key, detail in session.execute(
            select(WorldEntity.key, WorldEntity.detail).where(
                WorldEntity.world_id == world_id, WorldEntity.kind == "map"
            )
        )
    }
    found: dict[str, list[str]] = defaultdict(list)
    own = session.scalars(
        select(WorldEdge)
        .where(WorldEdge.world_id == world_id, WorldEdge.src_key.in_(list(keys)))
        .order_by(WorldEdge.path, WorldEdge.line, WorldEdge.id)
    )
    for edge in own:
        said = phrase(edge, screens)
        if said and said not in found[edge.src_key]:
            found[edge.src_key].append(said)
    programs = {k for k in keys if is_kind(k, Kind.PGM)}
    if programs:
        roles = session.scalars(
            select(WorldEdge).where(WorldEdge.world_id == world_id, WorldEdge.kind.in_(ROLE_KINDS))
        )
        for edge in roles:
            source = parse_key(edge.src_key)
            owner = program_key(source.program) if source and source.program else ""
            said = phrase(edge, screens)
            if owner in programs and said and said not in found[owner]:
                found[owner].append(said)
    return {key: ", ".join(said[:MAX_FACTS]) for key, said in found.items()}
