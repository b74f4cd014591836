"""The troubleshoot lens: from a symptom to the paragraphs and fields involved, the code
paths that reach them, and candidate causes with their evidence lines."""

from __future__ import annotations

from dataclasses import dataclass

from vigia.worlds.graph import Hop, edges, enclosing, entities_named, label, line_text, upstream
from vigia.worlds.lenses.common import (
    Answer,
    LensInput,
    clean_line,
    resolve_entities,
    search_passages,
)
from vigia.worlds.lenses.qa import DOC_KINDS
from vigia.worlds.models import WorldEntity

MAX_INVOLVED = 3


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


def _involved(lens: LensInput, answer: Answer) -> list[WorldEntity]:
    found: list[WorldEntity] = []
    for group in resolve_entities(lens):
        if group[0].kind in ("paragraph", "section"):
            found.extend(group[:2])
        elif group[0].kind in ("data", "condition"):
            writers = edges(
                lens.session, lens.world_id, dst=[e.key for e in group], kinds=["writes"]
            )
            found.extend(_entities(lens, [w.src_key for w in writers]))
    for hit, line, _text in search_passages(lens, limit=8):
        if hit.path.lower().endswith(DOC_KINDS):
            continue
        paragraph = enclosing(lens.session, lens.world_id, hit.path, line)
        if paragraph is not None and paragraph.kind == "paragraph":
            found.append(paragraph)
    unique: list[WorldEntity] = []
    for entity in found:
        if entity.key not in [u.key for u in unique]:
            unique.append(entity)
    return unique[:MAX_INVOLVED]


def _entities(lens: LensInput, keys: list[str]) -> list[WorldEntity]:
    from vigia.worlds.graph import entities_by_key

    return entities_by_key(lens.session, lens.world_id, keys)


def _causes(lens: LensInput, paragraph: WorldEntity, terms: list[str], bonus: int) -> list[Cause]:
    """Writers of the fields ``paragraph`` reads, scored by symptom words near them."""
    reads = edges(lens.session, lens.world_id, src=[paragraph.key], kinds=["reads"])
    fields = sorted({label(e.dst_key).split(".")[-1] for e in reads})
    same_name = entities_named(lens.session, lens.world_id, fields, ["data"])
    writers = edges(lens.session, lens.world_id, dst=[e.key for e in same_name], kinds=["writes"])
    comments = {e.key: e.detail or "" for e in _entities(lens, [w.src_key for w in writers])}
    causes: list[Cause] = []
    for edge in writers:
        text = line_text(lens.session, lens.world_id, edge.path, edge.line)
        field = label(edge.dst_key).split(".")[-1]
        haystack = f"{text} {edge.src_key} {field} {comments.get(edge.src_key, '')}".upper()
        same_program = edge.src_key.split(":")[1:2] == paragraph.key.split(":")[1:2]
        score = bonus + (
            2 * sum(1 for t in terms if t in haystack)
            + (edge.src_key != paragraph.key)
            + same_program
        )
        causes.append(Cause(field, edge.src_key, edge.path, edge.line, text, score))
    causes.sort(key=lambda c: (-c.score, c.path, c.line))
    return causes


def run_troubleshoot(lens: LensInput) -> Answer:
    """Diagnoses a symptom: involved paragraphs, how they are reached, candidate causes."""
    answer = Answer("troubleshoot", steps=["resolve entities", "full-text search"])
    terms = lens.terms
    involved = _involved(lens, answer)
    if involved:
        answer.steps += ["graph: code paths", "data flow: writers of inputs"]
    all_causes: list[Cause] = []
    for rank, paragraph in enumerate(involved):
        reads = edges(lens.session, lens.world_id, src=[paragraph.key], kinds=["reads"])
        fields = sorted({label(e.dst_key).split(".")[-1] for e in reads})
        answer.say(
            f"Involved: {paragraph.name} in {paragraph.program} "
            f"({answer.cite(paragraph.path, paragraph.line_start)}-{paragraph.line_end})"
            + (f", which reads {', '.join(fields[:8])}." if fields else ".")
        )
        route = code_path(upstream(lens.session, lens.world_id, [paragraph.key]), paragraph.key)
        if route:
            chain = " → ".join(
                f"{label(h.src_key)} ({answer.cite(h.path, h.line)})"
                for h in route
                if h.kind != "contains"
            )
            answer.say(f"Reached by: {chain} → {paragraph.name}.")
        answer.details.setdefault("involved", []).append(
            {
                "name": paragraph.name,
                "program": paragraph.program,
                "path": paragraph.path,
                "line": paragraph.line_start,
                "reads": fields,
                "code_path": [label(h.src_key) for h in route if h.kind != "contains"],
            }
        )
        all_causes.extend(_causes(lens, paragraph, terms, MAX_INVOLVED - rank))
    seen: set[tuple[str, int]] = set()
    ranked = []
    for cause in sorted(all_causes, key=lambda c: (-c.score, c.path, c.line)):
        if (cause.path, cause.line) not in seen:
            seen.add((cause.path, cause.line))
            ranked.append(cause)
    for number, cause in enumerate(ranked[:4], start=1):
        answer.say(
            f"Candidate cause {number}: {label(cause.writer)} sets {cause.field}: "
            f"“{cause.text}” ({answer.cite(cause.path, cause.line)})."
        )
    answer.details["causes"] = [
        {
            "field": c.field,
            "set_by": label(c.writer),
            "doc_id": c.path,
            "line": c.line,
            "evidence": c.text,
        }
        for c in ranked[:4]
    ]
    documented = 0
    for hit, line, text in search_passages(lens, limit=8):
        if hit.path.lower().endswith(DOC_KINDS) and text and documented < 2:
            answer.say(
                f"Documented: “{clean_line(text, hit.path)}” ({answer.cite(hit.path, line)})."
            )
            documented += 1
    if not answer.sentences:
        answer.say(
            f"Nothing in world {lens.world_id!r} matches this symptom; name the program, "
            "paragraph or field involved."
        )
    return answer
