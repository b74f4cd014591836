"""What every lens shares: the question's context, entity resolution, the answer with
its citations (``path:line``), and full-text passages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from vigia.worlds.graph import entities_named, label
from vigia.worlds.models import WorldEntity
from vigia.worlds.search import ChunkHit, best_line, query_terms
from vigia.worlds.search_sqlite import search_backend

KIND_ORDER = {
    "paragraph": 0,
    "section": 1,
    "data": 2,
    "condition": 3,
    "program": 4,
    "copybook": 5,
    "dataset": 6,
    "job": 7,
    "step": 8,
    "file": 9,
    "definition": 10,
}


@dataclass
class LensInput:
    """A question asked of one world, with the scope it may look at."""

    session: Session
    world_id: str
    message: str
    scope_paths: list[str]

    @property
    def terms(self) -> list[str]:
        return query_terms(self.message)

    def in_scope(self, path: str) -> bool:
        return not self.scope_paths or any(
            path == p or path.startswith(p.rstrip("/") + "/") for p in self.scope_paths
        )


@dataclass
class Answer:
    """Sentences with inline citations, the cited sources in order, and structured details."""

    lens: str
    sentences: list[str] = field(default_factory=list)
    sources: list[tuple[str, int]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    steps: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    def cite(self, path: str, line: int) -> str:
        """Records ``path:line`` as a source and returns it for the sentence."""
        if (path, line) not in self.sources:
            self.sources.append((path, line))
        return f"{path}:{line}"

    def say(self, sentence: str) -> None:
        if sentence and sentence not in self.sentences:
            self.sentences.append(sentence)

    @property
    def headline(self) -> str:
        return " ".join(self.sentences)


def resolve_entities(lens: LensInput, limit: int = 4) -> list[list[WorldEntity]]:
    """Entities named in the question, grouped by name, in the order they are mentioned."""
    candidates: list[str] = []
    for term in lens.terms:
        candidates.append(term)
        if "." in term:
            stem = term.split(".", 1)[0]
            if stem not in candidates:
                candidates.append(stem)
    found = [
        e
        for e in entities_named(lens.session, lens.world_id, candidates)
        if lens.in_scope(e.path)
        or (
            e.kind in ("data", "condition")
            and any(lens.in_scope(p) for p in _program_paths(lens, e))
        )
    ]
    groups: list[list[WorldEntity]] = []
    for name in candidates:
        group = [e for e in found if e.name == name]
        if group:
            group.sort(key=lambda e: (KIND_ORDER.get(e.kind, 99), e.path, e.line_start))
            groups.append(group)
    groups.sort(key=lambda g: (KIND_ORDER.get(g[0].kind, 99) > 5, -len(g[0].name)))
    return groups[:limit]


def _program_paths(lens: LensInput, entity: WorldEntity) -> list[str]:
    if not entity.program:
        return []
    programs = entities_named(lens.session, lens.world_id, [entity.program], ["program"])
    return [p.path for p in programs]


def search_passages(lens: LensInput, limit: int = 6) -> list[tuple[ChunkHit, int, str]]:
    """Best full-text passages in scope, each with its best line number and text."""
    session = lens.session
    hits = search_backend(session).search(
        session, lens.world_id, lens.terms, lens.scope_paths, limit
    )
    return [(hit, *best_line(hit, lens.terms)) for hit in hits]


def clean_line(text: str, path: str) -> str:
    """A source line for quoting: COBOL sequence and indicator areas dropped, blanks folded."""
    if path.lower().endswith((".cbl", ".cob", ".cpy", ".cobol", ".copy")) and len(text) > 7:
        text = text[7:72]
    return " ".join(text.split())[:160]


def program_of(key: str) -> str | None:
    parts = key.split(":")
    if parts[0] == "PGM":
        return parts[1]
    if parts[0] in ("PARA", "SECT", "DATA", "FD", "SQL", "CICS") and len(parts) >= 2:
        return parts[1]
    return None


def names(keys: list[str], limit: int = 8) -> str:
    """``A, B and C`` from keys, shortened."""
    shown = []
    for key in keys:
        text = label(key)
        if text not in shown:
            shown.append(text)
    if len(shown) > limit:
        shown = [*shown[:limit], f"{len(shown) - limit} more"]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " and " + shown[-1]
