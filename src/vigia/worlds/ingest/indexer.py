"""Indexes a world: walks its folder, re-reads only changed files, extracts the code graph,
and puts the files' passages on the shared search stack (one ``vigia.search`` collection
per world, code analyzer, dense vectors).

A file whose size and mtime did not change is not opened. A changed copybook re-extracts
the programs that copy it (their own text is re-read, since expansion needs it). Passages
are embedded after every file is read, in batches, then indexed in one go.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
from sqlalchemy import Table, delete, insert, select
from sqlalchemy.orm import Session

from vigia.db.base import utcnow
from vigia.observability import report
from vigia.search import CODE, Entry, index_for
from vigia.worlds import embedding
from vigia.worlds.catalog import collection_of
from vigia.worlds.graph.extraction import Entity, Extraction
from vigia.worlds.graph.keys import copybook_key
from vigia.worlds.ingest.bms import extract_bms
from vigia.worlds.ingest.chunks import Passage, name_words, passages
from vigia.worlds.ingest.classify import (
    COBOL_EXTENSIONS,
    COPYBOOK_EXTENSIONS,
    classify,
    is_fixed_format,
    is_probably_text,
)
from vigia.worlds.ingest.cobol.extract import extract_cobol
from vigia.worlds.ingest.cobol.header import copybook_purpose
from vigia.worlds.ingest.cobol.preprocess import preprocess
from vigia.worlds.ingest.definitions import csd_definitions, ddl_tables
from vigia.worlds.ingest.facts import fact_words
from vigia.worlds.ingest.jcl import extract_jcl
from vigia.worlds.ingest.treesitter import extract_code
from vigia.worlds.models import World, WorldChunk, WorldEdge, WorldEntity, WorldFile

MAX_FILE_BYTES = 5 * 1024 * 1024
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})
ENTRY_BATCH = 2000
FACT_WORDS = 20  # graph facts said in words, before the passage's own dense text
FACT_KINDS = ("code", "header", "jcl", "map")

Progress = Callable[[str, int, int], None]
"""``(phase, done, total)``: phase ``read`` counts files, ``embed`` counts passages."""


@dataclass(frozen=True)
class IndexReport:
    """What ``vigia world index`` prints: totals of the world, and what this run touched."""

    id: str
    files: int
    lines: int
    seconds: float
    changed: int
    removed: int
    lines_read: int


def _walk(root: Path) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    resolved = root.resolve()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part in SKIP_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if path.is_symlink() and resolved not in path.resolve().parents:
            continue
        if path.is_file() and path.stat().st_size <= MAX_FILE_BYTES:
            found.append((rel.as_posix(), path))
    return found


class _Copybooks:
    """Resolves copybook names to COBOL files of the world (``.cpy`` first), caching text.

    Only copybook and COBOL extensions (or none) qualify: ``COPY SSMAP`` must not expand
    the BMS source ``ssmap.bms``."""

    def __init__(self, files: list[tuple[str, Path]]) -> None:
        self.paths: dict[str, tuple[str, Path]] = {}
        for rel, path in files:
            suffix = path.suffix.lower()
            if suffix and suffix not in COPYBOOK_EXTENSIONS | COBOL_EXTENSIONS:
                continue
            name = path.stem.upper()
            if name not in self.paths or suffix in COPYBOOK_EXTENSIONS:
                self.paths[name] = (rel, path)
        self.cache: dict[str, str] = {}

    def __call__(self, name: str) -> tuple[str, str] | None:
        found = self.paths.get(name.upper())
        if found is None:
            return None
        rel, path = found
        if rel not in self.cache:
            self.cache[rel] = path.read_text(encoding="utf-8", errors="replace")
        return rel, self.cache[rel]


def _extract(kind: str, rel: str, text: str, copybooks: _Copybooks) -> Extraction:
    if kind == "cobol":
        return extract_cobol(preprocess(text, rel, copybooks), rel)
    if kind == "jcl":
        return extract_jcl(text, rel)
    if kind == "bms":
        return extract_bms(text, rel)
    out = extract_code(rel, text) if kind == "code" else Extraction()
    if kind == "copybook":
        name = Path(rel).stem.upper()
        lines = text.count("\n") + 1
        about = copybook_purpose(text)
        out.entities.append(
            Entity("copybook", name, copybook_key(name), rel, 1, lines, detail=about)
        )
    elif "DEFINE" in text.upper() or "CREATE" in text.upper():
        numbered = list(enumerate(text.splitlines(), start=1))
        csd_definitions(numbered, rel, out)
        ddl_tables(numbered, rel, out)
    return out


def extract_folder(root: Path) -> list[tuple[str, str, Extraction]]:
    """``(path, kind, extraction)`` of every text file of a folder, in path order, as
    indexing extracts them (copybooks expanded), with no database: what the golden
    extraction files of the test worlds hold."""
    on_disk = _walk(root)
    copybooks = _Copybooks(on_disk)
    out: list[tuple[str, str, Extraction]] = []
    for rel, path in on_disk:
        raw = path.read_bytes()
        if not is_probably_text(raw):
            continue
        text = raw.decode("utf-8", errors="replace")
        kind = classify(rel, text)
        out.append((rel, kind, _extract(kind, rel, text, copybooks)))
    return out


@dataclass
class _Pending:
    """Passages stored as chunk rows, waiting for their vectors."""

    rows: list[WorldChunk]
    found: list[Passage]


def _store(
    session: Session,
    world: World,
    record: WorldFile,
    text: str,
    extraction: Extraction,
    pending: _Pending,
) -> None:
    if extraction.entities:  # Core inserts: the ORM's bulk path costs seconds per 10k rows
        session.execute(
            insert(cast(Table, WorldEntity.__table__)),
            [
                {"world_id": world.id, "file_id": record.id, **entity.__dict__}
                for entity in extraction.entities
            ],
        )
    if extraction.edges:
        session.execute(
            insert(cast(Table, WorldEdge.__table__)),
            [
                {"world_id": world.id, "file_id": record.id, **edge.__dict__}
                for edge in extraction.edges
            ],
        )
    fixed = is_fixed_format(record.path, text)
    found = passages(record.path, record.kind, text, extraction.entities, fixed)
    rows = [
        WorldChunk(
            world_id=world.id,
            file_id=record.id,
            path=record.path,
            line_start=p.line_start,
            line_end=p.line_end,
            text=p.text,
            kind=p.kind,
            entity_key=p.entity_key,
            title=p.title[:300],
            fixed=fixed,
        )
        for p in found
    ]
    session.add_all(rows)
    pending.rows += rows
    pending.found += found


def _index_passages(
    session: Session, world: World, pending: _Pending, progress: Progress | None
) -> None:
    """Embeds the pending passages (zero vectors for word-only ones) and indexes them."""
    session.flush()
    keys = {p.entity_key for p in pending.found if p.entity_key and p.kind in FACT_KINDS}
    facts = fact_words(session, world.id, keys)
    dense: list[int] = []
    texts: list[str] = []
    for i, passage in enumerate(pending.found):
        said = facts.get(passage.entity_key or "", "") if passage.kind in FACT_KINDS else ""
        said = " ".join(said.split()[:FACT_WORDS]).rstrip(",")
        if said:  # what the code does says what it is for, even in a two-line paragraph
            own = passage.dense or name_words(passage.title.replace(".", " "))
            texts.append(f"{said}. {own}")
        elif passage.dense:
            texts.append(passage.dense)
        else:
            continue
        dense.append(i)
    vectors = np.zeros((len(pending.found), embedding.embedder().dim), dtype=np.float32)
    report = (lambda done, total: progress("embed", done, total)) if progress else None
    if dense:
        vectors[dense] = embedding.passages(texts, report)
    entries = [
        Entry(str(row.id), passage.lexical, vectors[i])
        for i, (row, passage) in enumerate(zip(pending.rows, pending.found, strict=True))
    ]
    index = index_for(session)
    for start in range(0, len(entries), ENTRY_BATCH):
        index.add(session, collection_of(world.id), entries[start : start + ENTRY_BATCH], CODE)


def _forget(session: Session, world: World, record: WorldFile) -> None:
    ids = session.scalars(select(WorldChunk.id).where(WorldChunk.file_id == record.id))
    keys = [str(i) for i in ids]
    if keys:
        index_for(session).remove(session, collection_of(world.id), keys)
    session.execute(delete(WorldChunk).where(WorldChunk.file_id == record.id))
    session.execute(delete(WorldEntity).where(WorldEntity.file_id == record.id))
    session.execute(delete(WorldEdge).where(WorldEdge.file_id == record.id))


def _read(path: Path) -> tuple[bytes, str]:
    raw = path.read_bytes()
    return raw, hashlib.sha256(raw).hexdigest()


def index_world(session: Session, world: World, progress: Progress | None = None) -> IndexReport:
    """(Re)indexes ``world``; only new or changed files (and dependants) are read."""
    started = time.perf_counter()
    root = Path(world.path)
    on_disk = _walk(root)
    present = {rel for rel, _ in on_disk}
    known = {
        f.path: f for f in session.scalars(select(WorldFile).where(WorldFile.world_id == world.id))
    }
    copybooks = _Copybooks(on_disk)

    removed = [record for path, record in known.items() if path not in present]
    for record in removed:
        _forget(session, world, record)
        session.delete(record)
    session.flush()

    todo: list[tuple[str, str, str, float, int]] = []
    changed_books = {Path(r.path).stem.upper() for r in removed if r.kind == "copybook"}
    for rel, path in on_disk:
        stat = path.stat()
        seen = known.get(rel)
        if seen is not None and seen.mtime == stat.st_mtime and seen.size == stat.st_size:
            continue
        raw, digest = _read(path)
        if seen is not None and seen.sha256 == digest:
            seen.mtime, seen.size = stat.st_mtime, stat.st_size
            continue
        if not is_probably_text(raw):
            continue
        text = raw.decode("utf-8", errors="replace")
        if classify(rel, text) == "copybook" or (seen is not None and seen.kind == "copybook"):
            changed_books.add(path.stem.upper())
        todo.append((rel, text, digest, stat.st_mtime, stat.st_size))

    queued = {item[0] for item in todo}
    for record in known.values():
        if record.path not in queued and set(record.copies) & changed_books:
            path = root / record.path
            if path.exists():
                raw, digest = _read(path)
                stat = path.stat()
                text = raw.decode("utf-8", errors="replace")
                todo.append((record.path, text, digest, stat.st_mtime, stat.st_size))

    lines_read = 0
    pending = _Pending([], [])
    for done, (rel, text, digest, mtime, size) in enumerate(todo, start=1):
        kind = classify(rel, text)
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        lines_read += lines
        extraction = _extract(kind, rel, text, copybooks)
        existing = known.get(rel)
        if existing is None:
            record = WorldFile(world_id=world.id, path=rel)
            session.add(record)
        else:
            record = existing
            _forget(session, world, record)
        record.kind, record.sha256, record.mtime, record.size = kind, digest, mtime, size
        record.lines, record.copies = lines, extraction.copies
        session.flush()
        _store(session, world, record, text, extraction, pending)
        if progress is not None:
            progress("read", done, len(todo))
    _index_passages(session, world, pending, progress)

    totals = session.scalars(select(WorldFile.lines).where(WorldFile.world_id == world.id)).all()
    world.files, world.lines, world.indexed_at = len(totals), int(sum(totals)), utcnow()
    session.flush()
    report.world_indexed(world.id, len(todo), time.perf_counter() - started)
    return IndexReport(
        world.id,
        world.files,
        world.lines,
        round(time.perf_counter() - started, 3),
        len(todo),
        len(removed),
        lines_read,
    )
