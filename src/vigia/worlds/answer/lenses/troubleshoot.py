"""The troubleshoot lens: from a symptom to where to look — the paragraphs involved (named,
found by meaning and words, or setting the value the symptom quotes), how they are
reached, and candidate causes with their evidence lines."""

from __future__ import annotations

from dataclasses import dataclass

from vigia.worlds.answer.lenses.common import Answer, LensInput, program_of, resolve
from vigia.worlds.answer.lenses.conditions import branch_of
from vigia.worlds.answer.lenses.documents import by_answer
from vigia.worlds.answer.lenses.evidence import Candidate, entity_of, rank, state
from vigia.worlds.answer.lenses.literals import guard, numbers, quoted, shown_at, writers_of
from vigia.worlds.graph.keys import Kind, doc_key, is_code_block, is_kind
from vigia.worlds.graph.queries import Hop, entities_named, label, line_text
from vigia.worlds.models import WorldEdge, WorldEntity
from vigia.worlds.source import shorten

MAX_INVOLVED = 3
MAX_CAUSES = 4
SETS_QUOTED_CONDITION = 0.05
SETS_QUOTED_NUMBER = 0.015
SHOWS_QUOTED = 0.01


@dataclass(frozen=True)
class Cause:
    """A line that sets a value the involved paragraph depends on."""

    field: str
    writer: str
    path: str
    line: int
    text: str
    score: int


def code_path(hops: list[Hop], start: str) -> list[Hop]:
    """One route from the outermost caller (a JCL step when there is one) down to ``start``."""
    by_dst: dict[str, list[Hop]] = {}
    for hop in hops:
        by_dst.setdefault(hop.dst_key, []).append(hop)
    route: list[Hop] = []
    current, seen = start, {start}
    while current in by_dst:
        options = [h for h in by_dst[current] if h.src_key not in seen]
        if not options:
            break
        options.sort(key=lambda h: (h.kind == "contains", h.depth))
        hop = options[0]
        route.append(hop)
        seen.add(hop.src_key)
        current = hop.src_key
    return list(reversed(route))


def _evidence(lens: LensInput, found: dict[str, Candidate]) -> dict[str, list[WorldEdge]]:
    """Bonuses for code that sets the values the symptom quotes; the setting lines by key."""
    setting: dict[str, list[WorldEdge]] = {}

    credited: set[int] = set()

    def credit(edges: list[WorldEdge], bonus: float) -> None:
        for edge in edges:
            if edge.id in credited:
                continue
            credited.add(edge.id)
            candidate = found.setdefault(edge.src_key, Candidate(edge.src_key))
            candidate.bonus += bonus
            setting.setdefault(edge.src_key, []).append(edge)

    for text in quoted(lens.message):
        for hit, line in shown_at(lens, text)[:4]:
            if hit.chunk.entity_key:
                found.setdefault(
                    hit.chunk.entity_key, Candidate(hit.chunk.entity_key)
                ).bonus += SHOWS_QUOTED
            condition = guard(hit, line)
            if condition is not None:
                credit(writers_of(lens, [condition.value], condition.field), SETS_QUOTED_CONDITION)
    values = numbers(lens.message)
    if values:
        credit(writers_of(lens, values), SETS_QUOTED_NUMBER)
    return setting


def _causes(lens: LensInput, paragraph: WorldEntity, terms: list[str], bonus: int) -> list[Cause]:
    """Writers of the fields ``paragraph`` reads, scored by symptom words near them."""
    reads = lens.edges(src=[paragraph.key], kinds=["reads"])
    fields = sorted(
        {label(e.dst_key).split(".")[-1] for e in reads if is_kind(e.dst_key, Kind.DATA)}
    )
    same_name = entities_named(lens.session, lens.world_id, fields, ["data"])
    writers = lens.edges(dst=[e.key for e in same_name], kinds=["writes"])
    comments = {e.key: e.detail or "" for e in lens.entities([w.src_key for w in writers])}
    causes: list[Cause] = []
    for edge in writers:
        text = line_text(lens.session, lens.world_id, edge.path, edge.line)
        field = label(edge.dst_key).split(".")[-1]
        haystack = f"{text} {edge.src_key} {field} {comments.get(edge.src_key, '')}".upper()
        same_program = program_of(edge.src_key) == program_of(paragraph.key)
        score = bonus + (
            2 * sum(1 for t in terms if t in haystack)
            + (edge.src_key != paragraph.key)
            + same_program
        )
        causes.append(Cause(field, edge.src_key, edge.path, edge.line, text, score))
    causes.sort(key=lambda c: (-c.score, c.path, c.line))
    return causes


def _reaching(lens: LensInput, setters: list[str]) -> set[str]:
    """The paragraphs setting a value the symptom quotes, and everything that reaches them
    (PERFORM, CALL, LINK, transactions, JCL steps): the code that can take that branch."""
    if not setters:
        return set()
    return set(setters) | {hop.src_key for hop in lens.upstream(setters)}


def _set_when(lens: LensInput, answer: Answer, setters: list[WorldEdge]) -> list[str]:
    """``CA-RETURN-CODE = 90 (path:line) when “IF SQLCODE NOT EQUAL 0” (path:line)``, the
    condition (``conditions.branch_of``) recorded in the answer's details too."""
    shown = []
    for edge in setters:
        sets = f"{label(edge.dst_key).split('.')[-1]} {edge.detail}"
        item = f"{sets} ({answer.cite(edge.path, edge.line)})"
        branch = branch_of(lens.session, lens.world_id, edge.path, edge.line)
        if branch is not None and lens.in_scope(branch.path):
            where = answer.cite(branch.path, branch.line)
            item += answer.word(" when “{condition}” ({where})", condition=branch.text, where=where)
            answer.details.setdefault("conditions", []).append(
                {
                    "sets": sets,
                    "doc_id": edge.path,
                    "line": edge.line,
                    "condition": branch.text,
                    "condition_line": branch.line,
                }
            )
        shown.append(item)
    return shown


def _involved(lens: LensInput, answer: Answer) -> list[tuple[WorldEntity, list[WorldEdge]]]:
    resolved = resolve(lens)
    found = {c.key: c for c in rank(lens, resolved)}
    for group in resolved.strong:
        for entity in group[:2]:
            if entity.kind in ("paragraph", "section"):
                found.setdefault(entity.key, Candidate(entity.key)).bonus += 0.05
        if group[0].kind in ("data", "condition"):
            for writer in lens.edges(dst=[e.key for e in group], kinds=["writes"]):
                found.setdefault(writer.src_key, Candidate(writer.src_key)).bonus += 0.02
    setting = _evidence(lens, found)
    reaching = _reaching(lens, list(setting))
    involved: list[tuple[WorldEntity, list[WorldEdge], Candidate]] = []
    order = sorted(
        found.values(), key=lambda c: (bool(reaching) and c.key not in reaching, -c.score, c.key)
    )
    for candidate in order:
        if is_code_block(candidate.key):
            found_entity = entity_of(lens, candidate)
            if found_entity is not None:
                involved.append((found_entity, setting.get(candidate.key, []), candidate))
        if len(involved) >= MAX_INVOLVED:
            break
    for rank_number, (_entity, setters, candidate) in enumerate(involved):
        lead = answer.word("Look first at " if rank_number == 0 else "Also check ")
        state(lens, answer, candidate, lead)
        if setters:
            answer.tell("It sets {items}.", items=", ".join(_set_when(lens, answer, setters[:3])))
    return [(entity, setters) for entity, setters, _ in involved]


def run_troubleshoot(lens: LensInput) -> Answer:
    """Diagnoses a symptom: where to look, how it is reached, candidate causes."""
    answer = Answer(
        "troubleshoot", lang=lens.lang, steps=["resolve entities", "hybrid search", "quoted values"]
    )
    involved = _involved(lens, answer)
    if involved:
        answer.steps += ["graph: code paths", "data flow: writers of inputs"]
    all_causes: list[Cause] = []
    for rank_number, (paragraph, _setters) in enumerate(involved):
        route = code_path(lens.upstream([paragraph.key]), paragraph.key)
        chain = [
            f"{label(h.src_key)} ({answer.cite(h.path, h.line)})"
            for h in route
            if h.kind != "contains"
        ]
        if chain:
            answer.tell(
                "{name} is reached by: {chain} → {name}.",
                name=paragraph.name,
                chain=" → ".join(chain),
            )
        reads = sorted(
            {
                label(e.dst_key).split(".")[-1]
                for e in lens.edges(src=[paragraph.key], kinds=["reads"])
            }
        )
        answer.details.setdefault("involved", []).append(
            {
                "name": paragraph.name,
                "program": paragraph.program,
                "path": paragraph.path,
                "line": paragraph.line_start,
                "reads": reads,
                "code_path": [label(h.src_key) for h in route if h.kind != "contains"],
            }
        )
        bonus = 3 * (MAX_INVOLVED - rank_number)  # the first involved paragraph first
        all_causes.extend(_causes(lens, paragraph, lens.terms, bonus))
    seen: set[tuple[str, int]] = set()
    ranked = []
    for cause in sorted(all_causes, key=lambda c: (-c.score, c.path, c.line)):
        if (cause.path, cause.line) not in seen:
            seen.add((cause.path, cause.line))
            ranked.append(cause)
    for number, cause in enumerate(ranked[:MAX_CAUSES], start=1):
        answer.tell(
            "Candidate cause {number}: {writer} sets {field}: “{text}” ({where}).",
            number=number,
            writer=label(cause.writer),
            field=cause.field,
            text=shorten(cause.text),
            where=answer.cite(cause.path, cause.line),
        )
    answer.details["causes"] = [
        {
            "field": c.field,
            "set_by": label(c.writer),
            "doc_id": c.path,
            "line": c.line,
            "evidence": c.text,
        }
        for c in ranked[:MAX_CAUSES]
    ]
    documented = [
        Candidate(doc_key(hit.path, hit.chunk.line_start), [hit.score], hit=hit)
        for hit in lens.hits
        if hit.chunk.kind == "doc"
    ]
    for candidate in by_answer(lens, documented)[:2]:
        state(lens, answer, candidate, answer.word("Documented: "))
    if not answer.sentences:
        answer.tell(
            "Nothing in world {world} matches this symptom; name the program, paragraph or "
            "field involved.",
            world=repr(lens.world_id),
        )
    return answer
