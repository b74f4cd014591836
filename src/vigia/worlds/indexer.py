"""Indexes a world: walks its folder, re-reads only changed files, extracts the code graph,
stores chunks for full-text search.

A file whose size and mtime did not change is not opened. A changed copybook re-extracts
the programs that copy it (their own text is re-read, since expansion needs it).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from vigia.db.base import utcnow
from vigia.observability import report
from vigia.worlds.chunking import chunk_lines
from vigia.worlds.classify import COPYBOOK_EXTENSIONS, classify, is_probably_text
from vigia.worlds.cobol.extract import extract_cobol
from vigia.worlds.cobol.preprocess import preprocess
from vigia.worlds.graph_types import Extraction
from vigia.worlds.jcl import extract_jcl
from vigia.worlds.models import World, WorldChunk, WorldEdge, WorldEntity, WorldFile
from vigia.worlds.search import WorldSearch
from vigia.worlds.search_sqlite import search_backend
from vigia.worlds.treesitter import extract_code

MAX_FILE_BYTES = 5 * 1024 * 1024
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})

Progress = Callable[[int, int, str], None]


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
    """Resolves copybook names to files of the world (``.cpy`` first), caching their text."""

    def __init__(self, files: list[tuple[str, Path]]) -> None:
        self.paths: dict[str, tuple[str, Path]] = {}
        for rel, path in files:
            name = path.stem.upper()
            preferred = path.suffix.lower() in COPYBOOK_EXTENSIONS
            if name not in self.paths or preferred:
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
    if kind == "copybook":
        lines = text.count("\n") + 1
        name = Path(rel).stem.upper()
        out = Extraction()
        from vigia.worlds.graph_types import Entity

        out.entities.append(Entity("copybook", name, f"COPY:{name}", rel, 1, lines))
        return out
    if kind == "code":
        return extract_code(rel, text)
    return Extraction()


def _store(
    session: Session,
    search: WorldSearch,
    world: World,
    record: WorldFile,
    text: str,
    extraction: Extraction,
) -> None:
    if extraction.entities:
        session.execute(
            insert(WorldEntity),
            [
                {"world_id": world.id, "file_id": record.id, **entity.__dict__}
                for entity in extraction.entities
            ],
        )
    if extraction.edges:
        session.execute(
            insert(WorldEdge),
            [
                {"world_id": world.id, "file_id": record.id, **edge.__dict__}
                for edge in extraction.edges
            ],
        )
    starts = {
        e.line_start
        for e in extraction.entities
        if e.path == record.path and e.kind in ("paragraph", "section", "step")
    }
    chunks = [
        WorldChunk(
            world_id=world.id,
            file_id=record.id,
            path=record.path,
            line_start=start,
            line_end=end,
            text=body,
        )
        for start, end, body in chunk_lines(text, record.kind, starts)
    ]
    session.add_all(chunks)
    session.flush()
    search.add_chunks(session, chunks)


def _forget(session: Session, search: WorldSearch, record: WorldFile) -> None:
    search.remove_file(session, record.id)
    session.execute(delete(WorldEntity).where(WorldEntity.file_id == record.id))
    session.execute(delete(WorldEdge).where(WorldEdge.file_id == record.id))


def index_world(session: Session, world: World, progress: Progress | None = None) -> IndexReport:
    """(Re)indexes ``world``; only new or changed files (and dependants) are read."""
    started = time.perf_counter()
    search = search_backend(session)
    root = Path(world.path)
    on_disk = _walk(root)
    known = {
        f.path: f for f in session.scalars(select(WorldFile).where(WorldFile.world_id == world.id))
    }
    copybooks = _Copybooks(on_disk)

    removed = [record for path, record in known.items() if path not in dict(on_disk)]
    for record in removed:
        _forget(session, search, record)
        session.delete(record)
    session.flush()

    todo: list[tuple[str, Path, str, str, float, int]] = []
    changed_books: set[str] = {Path(r.path).stem.upper() for r in removed if r.kind == "copybook"}
    for rel, path in on_disk:
        stat = path.stat()
        seen = known.get(rel)
        if seen is not None and seen.mtime == stat.st_mtime and seen.size == stat.st_size:
            continue
        raw = path.read_bytes()
        digest = hashlib.sha256(raw).hexdigest()
        if seen is not None and seen.sha256 == digest:
            seen.mtime, seen.size = stat.st_mtime, stat.st_size
            continue
        if not is_probably_text(raw):
            continue
        text = raw.decode("utf-8", errors="replace")
        kind = classify(rel, text)
        if kind == "copybook" or (seen is not None and seen.kind == "copybook"):
            changed_books.add(path.stem.upper())
        todo.append((rel, path, text, digest, stat.st_mtime, stat.st_size))

    queued = {item[0] for item in todo}
    if changed_books:
        for record in known.values():
            if record.path not in queued and set(record.copies) & changed_books:
                path = root / record.path
                if path.exists():
                    raw = path.read_bytes()
                    stat = path.stat()
                    todo.append(
                        (
                            record.path,
                            path,
                            raw.decode("utf-8", errors="replace"),
                            hashlib.sha256(raw).hexdigest(),
                            stat.st_mtime,
                            stat.st_size,
                        )
                    )

    lines_read = 0
    for done, (rel, _path, text, digest, mtime, size) in enumerate(todo, start=1):
        kind = classify(rel, text)
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        lines_read += lines
        extraction = _extract(kind, rel, text, copybooks)
        existing = known.get(rel)
        if existing is None:
            record = WorldFile(
                world_id=world.id,
                path=rel,
                kind=kind,
                sha256=digest,
                mtime=mtime,
                size=size,
                lines=lines,
                copies=extraction.copies,
            )
            session.add(record)
            session.flush()
        else:
            record = existing
            _forget(session, search, record)
            record.kind, record.sha256, record.mtime, record.size = kind, digest, mtime, size
            record.lines, record.copies = lines, extraction.copies
        _store(session, search, world, record, text, extraction)
        if progress is not None:
            progress(done, len(todo), rel)

    totals = (
        session.execute(select(WorldFile.lines).where(WorldFile.world_id == world.id))
        .scalars()
        .all()
    )
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
