"""The impact lens: what is affected if an entity changes (transitive callers, PERFORM
chains, programs and JCL steps using a field or copybook)."""

from __future__ import annotations

from vigia.worlds.graph import Hop, edges, label, upstream
from vigia.worlds.lenses.common import Answer, LensInput, resolve_entities
from vigia.worlds.lenses.qa import add_passages
from vigia.worlds.models import WorldEdge, WorldEntity


def _chain(answer: Answer, hops: list[Hop]) -> None:
    performers = [h for h in hops if h.kind in ("performs", "performs_thru", "goes_to")]
    callers = [h for h in hops if h.kind in ("calls", "calls_dynamic")]
    steps = [h for h in hops if h.kind == "executes"]
    if performers:
        shown = _unique(answer, performers)
        answer.say(f"It is reached through PERFORM from {shown}.")
    if callers:
        answer.say(f"Programs that call into it (transitively): {_unique(answer, callers)}.")
    if steps:
        answer.say(f"JCL steps that run an affected program: {_unique(answer, steps)}.")
    answer.details.setdefault("performed_by", []).extend(
        sorted({label(h.src_key) for h in performers})
    )
    answer.details.setdefault("callers", []).extend(sorted({label(h.src_key) for h in callers}))
    answer.details.setdefault("jcl_steps", []).extend(sorted({label(h.src_key) for h in steps}))


def _unique(answer: Answer, hops: list[Hop], limit: int = 10) -> str:
    seen: dict[str, Hop] = {}
    for hop in hops:
        seen.setdefault(hop.src_key, hop)
    items = [f"{label(k)} ({answer.cite(h.path, h.line)})" for k, h in list(seen.items())[:limit]]
    if len(seen) > limit:
        items.append(f"{len(seen) - limit} more")
    return ", ".join(items)


def _hops(found: list[WorldEdge]) -> list[Hop]:
    return [Hop(e.kind, e.src_key, e.dst_key, e.path, e.line, None, 1) for e in found]


def _field_impact(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    first = group[0]
    keys = [e.key for e in group]
    uses = edges(lens.session, lens.world_id, dst=keys, kinds=["reads", "writes"])
    origin = f" (from copybook {first.origin})" if first.origin else ""
    answer.say(
        f"Changing {first.name}{origin}, defined at "
        f"{answer.cite(first.path, first.line_start)}, affects the paragraphs that use it:"
        f" {_unique(answer, _hops(uses))}."
    )
    programs = sorted({e.program for e in group if e.program})
    answer.say(f"Programs holding the field: {', '.join(programs)}.")
    answer.details.setdefault("paragraphs", []).extend(sorted({label(e.src_key) for e in uses}))
    answer.details.setdefault("programs", []).extend(programs)
    if first.origin:
        _copybook_impact(lens, first.origin, answer)
    _chain(answer, upstream(lens.session, lens.world_id, [f"PGM:{p}" for p in programs]))


def _copybook_impact(lens: LensInput, name: str, answer: Answer) -> list[str]:
    users = edges(lens.session, lens.world_id, dst=[f"COPY:{name}"], kinds=["copies"])
    if users:
        shown = ", ".join(
            f"{label(e.src_key)} ({answer.cite(e.path, e.line)}"
            + (f", {e.detail}" if e.detail else "")
            + ")"
            for e in users
        )
        answer.say(f"Copybook {name} is copied by {shown}; each must be recompiled.")
    programs = sorted({label(e.src_key) for e in users})
    answer.details.setdefault("programs", []).extend(programs)
    return programs


def _entity_impact(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    where = answer.cite(entity.path, entity.line_start)
    if entity.kind == "copybook":
        answer.say(
            f"Changing copybook {entity.name} ({where}) affects every program that copies it."
        )
        programs = _copybook_impact(lens, entity.name, answer)
        _chain(answer, upstream(lens.session, lens.world_id, [f"PGM:{p}" for p in programs]))
        return
    if entity.kind == "dataset":
        used = edges(lens.session, lens.world_id, dst=[entity.key], kinds=["reads", "writes"])
        answer.say(
            f"Changing dataset {entity.name} ({where}) affects the steps that use it: "
            f"{_unique(answer, _hops(used))}."
        )
        runs = edges(lens.session, lens.world_id, src=[e.src_key for e in used], kinds=["executes"])
        answer.details.setdefault("jcl_steps", []).extend(sorted({label(e.src_key) for e in used}))
        answer.details.setdefault("programs", []).extend(sorted({label(e.dst_key) for e in runs}))
        return
    owner = f" of {entity.program}" if entity.program and entity.kind != "program" else ""
    answer.say(f"Changing {entity.kind} {entity.name}{owner} ({where}) affects what reaches it.")
    hops = upstream(lens.session, lens.world_id, [entity.key])
    _chain(answer, hops)
    if entity.kind in ("paragraph", "section"):
        written = edges(lens.session, lens.world_id, src=[entity.key], kinds=["writes"])
        fields = sorted({e.dst_key for e in written})
        if fields:
            readers = edges(lens.session, lens.world_id, dst=fields, kinds=["reads"])
            readers = [r for r in readers if r.src_key != entity.key]
            answer.say(
                f"It writes {', '.join(label(f).split('.')[-1] for f in fields)}"
                + (f", read downstream by {_unique(answer, _hops(readers))}." if readers else ".")
            )


def run_impact(lens: LensInput) -> Answer:
    """Transitive dependants of the entities named in the question, every one cited."""
    answer = Answer("impact", steps=["resolve entities", "graph: recursive upstream walk"])
    groups = resolve_entities(lens, limit=2)
    for group in groups:
        if group[0].kind in ("data", "condition"):
            _field_impact(lens, group, answer)
            continue
        done: set[str] = set()
        for entity in group:
            if entity.key not in done and len(done) < 2:
                done.add(entity.key)
                _entity_impact(lens, entity, answer)
    for key in ("performed_by", "callers", "jcl_steps", "programs", "paragraphs"):
        if key in answer.details:
            answer.details[key] = sorted(set(answer.details[key]))
    if not groups:
        answer.say(
            "I could not find a program, paragraph, field, copybook or dataset of that "
            f"name in world {lens.world_id!r}; closest passages follow."
        )
        answer.steps.append("full-text search")
        add_passages(lens, answer, with_code=True)
    return answer
