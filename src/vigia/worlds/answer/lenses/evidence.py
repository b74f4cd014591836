"""From passages to the code that answers: candidate paragraphs and programs, ranked.

Each passage the search returns votes for the entity it belongs to (its paragraph, its
program for header and data passages, its JCL step); a copy of a passage already counted
(the same entity's same code in another file: a variant or a backup of a program) does
not vote again. Two passages are followed one step
further through the graph: a cursor declared in a data passage votes for the paragraphs
that open or fetch it, and a BMS map for the programs that send or receive it. Then the
graph adds what the question names: a paragraph of a named program, or one that touches a
named table, file, queue, field… ranks higher, and is a candidate even when no passage of
it was found (the question says which it is).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import select

from vigia.worlds.answer.doc_quote import Quote
from vigia.worlds.answer.lenses.common import Answer, LensInput, Resolved, cited, program_of
from vigia.worlds.answer.lenses.naming import name_bonus, named_fields
from vigia.worlds.answer.lenses.resources import actions, state_actions
from vigia.worlds.answer.retrieval import ChunkHit, best_line
from vigia.worlds.graph.keys import Kind, doc_key, is_code_block, is_kind, name_of, program_key
from vigia.worlds.graph.queries import label
from vigia.worlds.models import WorldChunk, WorldEntity
from vigia.worlds.source import code_area

# Votes passed on through the graph: a cursor's query is its paragraphs' own logic; a
# screen's texts (menus, field labels) say less about what a program does.
CURSOR_FOLLOWED = 1.0
SCREEN_FOLLOWED = 0.5
REST = 0.25  # weight of an entity's passages after its best one
IN_NAMED_PROGRAM = 0.02
TOUCHES_NAMED = 0.03
TOUCHES_WORD = 0.01
BOILERPLATE = 0.6  # weight of a paragraph whose name many programs share
CODE_KINDS = ("code", "header", "data", "map", "copybook", "jcl")


@dataclass
class Candidate:
    """An entity that may answer the question: its key, score and best passage."""

    key: str
    scores: list[float] = field(default_factory=list)
    bonus: float = 0.0
    hit: ChunkHit | None = None
    via: str | None = None
    quote: Quote | None = None  # a documentation passage's best sentence, once weighed

    @property
    def score(self) -> float:
        ranked = sorted(self.scores, reverse=True)
        return (ranked[0] + REST * sum(ranked[1:]) if ranked else 0.0) + self.bonus


def _vote(found: dict[str, Candidate], key: str, score: float, hit: ChunkHit | None) -> Candidate:
    candidate = found.setdefault(key, Candidate(key))
    candidate.scores.append(score)
    if candidate.hit is None:
        candidate.hit = hit
    return candidate


def _code_of(chunk: WorldChunk) -> str:
    """A passage's code, blanks folded and sequence areas dropped (copies compare equal)."""
    lines = chunk.text.splitlines()
    return " ".join(" ".join(code_area(line, chunk.fixed)[1] for line in lines).split())


def _follow_map(lens: LensInput, hit: ChunkHit, found: dict[str, Candidate]) -> None:
    """A BMS map passage → the programs that send or receive the map."""
    key = hit.chunk.entity_key
    if not key:
        return
    for edge in lens.edges(dst=[key], kinds=["sends", "receives"]):
        program = program_of(edge.src_key)
        if program:
            voted = _vote(found, program_key(program), hit.score * SCREEN_FOLLOWED, hit)
            voted.via = voted.via or f"its screen {label(key)}"


def _follow_cursors(lens: LensInput, hit: ChunkHit, found: dict[str, Candidate]) -> None:
    """Cursors declared within a data passage → the paragraphs that open or fetch them."""
    chunk = hit.chunk
    cursors = lens.session.scalars(
        select(WorldEntity.key).where(
            WorldEntity.world_id == lens.world_id,
            WorldEntity.path == chunk.path,
            WorldEntity.kind == "cursor",
            WorldEntity.line_start.between(chunk.line_start, chunk.line_end),
        )
    )
    for edge in lens.edges(kinds=["uses"], dst=list(cursors)):
        voted = _vote(found, edge.src_key, hit.score * CURSOR_FOLLOWED, hit)
        voted.via = voted.via or f"cursor {label(edge.dst_key)}"


def _touching(lens: LensInput, targets: list[str]) -> set[str]:
    """Paragraphs and programs with an edge to any of ``targets`` (through cursors too)."""
    touching: set[str] = set()
    if not targets:
        return touching
    for edge in lens.edges(dst=targets):
        src = edge.src_key
        if is_kind(src, Kind.PARA, Kind.SECT, Kind.PGM):
            touching.add(src)
        elif is_kind(src, Kind.CURSOR):
            touching.update(e.src_key for e in lens.edges(dst=[src], kinds=["uses"]))
    return touching


def rank(
    lens: LensInput, resolved: Resolved, hits: list[ChunkHit] | None = None
) -> list[Candidate]:
    """Candidate entities for the question, best first."""
    found: dict[str, Candidate] = {}
    seen: set[tuple[str | None, str]] = set()
    for hit in lens.hits if hits is None else hits:
        chunk = hit.chunk
        key = chunk.entity_key if chunk.kind in CODE_KINDS and chunk.entity_key else None
        copy = (key, _code_of(chunk))
        if copy in seen:
            continue  # the same code in another file (a variant, a backup) is no new evidence
        seen.add(copy)
        shared = key is not None and is_code_block(key) and name_of(key) in lens.boilerplate
        score = hit.score * (BOILERPLATE if shared else 1)
        _vote(found, key or doc_key(chunk.path, chunk.line_start), score, hit)
        if chunk.kind == "map":
            _follow_map(lens, hit, found)
        elif chunk.kind == "data":
            _follow_cursors(lens, hit, found)
    programs = {e.name for g in resolved.strong for e in g if e.kind == "program"}
    for groups, bonus in ((resolved.strong, TOUCHES_NAMED), (resolved.weak, TOUCHES_WORD)):
        targets = [e.key for g in groups for e in g if e.kind not in ("program", "paragraph")]
        for key in _touching(lens, targets):
            if not programs or program_of(key) in programs:
                found.setdefault(key, Candidate(key)).bonus += bonus
    for candidate in found.values():
        if programs and program_of(candidate.key) in programs:
            candidate.bonus += IN_NAMED_PROGRAM
    for key, bonus in name_bonus(lens, list(found)).items():
        found[key].bonus += bonus
    for key, bonus in named_fields(lens).items():
        found.setdefault(key, Candidate(key)).bonus += bonus
    return sorted(found.values(), key=lambda c: (-c.score, c.key))


def entity_of(lens: LensInput, candidate: Candidate) -> WorldEntity | None:
    found = lens.entities([candidate.key])
    return found[0] if found else None


def state(
    lens: LensInput, answer: Answer, candidate: Candidate, lead: str = "", callers: bool = False
) -> None:
    """One candidate in words: where it is, what its comment says, what it does, and the
    line of its passage that matches the question best (and, with ``callers``, what calls
    its program: the context it runs in)."""
    if is_kind(candidate.key, Kind.DOC):
        hit = candidate.hit
        if hit is None:
            return
        found = candidate.quote
        line, text = (
            (found.line, found.text)
            if found is not None
            else best_line(hit.chunk, lens.query, lens.vector, lens.message)
        )
        if text:
            where = answer.cite(hit.path, line)
            answer.tell("{lead}“{text}” ({where}).", lead=lead, text=text, where=where)
        return
    entity = entity_of(lens, candidate)
    if entity is None:
        return
    where = answer.cite(entity.path, entity.line_start)
    span = f"{where}-{entity.line_end}" if entity.line_end > entity.line_start else where
    name = label(entity.key) if entity.kind in ("paragraph", "section") else entity.name
    about = f": {entity.detail.rstrip('.')}" if entity.detail and entity.kind != "data" else ""
    via = answer.word(", found through {via}", via=candidate.via) if candidate.via else ""
    answer.tell(
        "{lead}{name} ({kind}, {span}{via}){about}.",
        lead=lead,
        name=name,
        kind=answer.word(entity.kind),
        span=span,
        via=via,
        about=about,
    )
    keys = [entity.key]
    if entity.kind == "program":
        keys += [e.dst_key for e in lens.edges(src=[entity.key], kinds=["contains"])]
    state_actions(answer, actions(lens, keys), "It", limit=6)
    if entity.kind == "map":
        shown_by = lens.edges(dst=[entity.key], kinds=["sends", "receives"])
        if shown_by:
            answer.tell("The screen is shown by {items}.", items=cited(answer, shown_by, True, 4))
    program = entity.program or (entity.name if entity.kind == "program" else None)
    if callers and program:
        calling = lens.edges(dst=[program_key(program)], kinds=["calls", "calls_dynamic"])
        if calling:
            answer.tell(
                "{program} is called by {items}.",
                program=program,
                items=cited(answer, calling, True, 4),
            )
        running = lens.edges(dst=[program_key(program)], kinds=["executes"])
        if running:
            answer.tell(
                "{program} runs under {items}.",
                program=program,
                items=cited(answer, running, True, 4),
            )
    hit = candidate.hit
    if hit is not None and hit.chunk.entity_key == entity.key:
        line, text = best_line(hit.chunk, lens.query)
        if text:
            answer.tell("Code: “{text}” ({where}).", text=text, where=answer.cite(hit.path, line))
