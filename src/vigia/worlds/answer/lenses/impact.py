"""The impact lens: what is affected if an entity changes — transitive callers (CALL, CICS
LINK/XCTL), PERFORM chains, transactions and JCL steps that run an affected program,
programs copying or including a copybook, JCL naming it, code using a field (and tables
sized by it), a table, a CICS file, a queue, a map, a dataset."""

from __future__ import annotations

from vigia.worlds.answer.lenses.common import (
    Answer,
    LensInput,
    at,
    distinct,
    listing,
    program_of,
    resolve,
)
from vigia.worlds.answer.lenses.evidence import entity_of, rank
from vigia.worlds.answer.lenses.resources import ACTION_KINDS, describe_resource
from vigia.worlds.graph.keys import Kind, copybook_key, is_kind, make, program_key
from vigia.worlds.graph.queries import Hop, label
from vigia.worlds.models import WorldEdge, WorldEntity

RESOURCE_KINDS = ("cics_file", "table", "queue", "counter", "map", "mapset", "transaction")


def _unique(answer: Answer, hops: list[Hop] | list[WorldEdge], limit: int = 10) -> str:
    seen: dict[tuple[str, str], Hop | WorldEdge] = {}
    for hop in hops:
        seen.setdefault(distinct(hop.src_key, hop.path), hop)
    items = [
        f"{label(k)} ({answer.cite(h.path, h.line)})" for (k, _p), h in list(seen.items())[:limit]
    ]
    if len(seen) > limit:
        items.append(f"{len(seen) - limit} {answer.word('more')}")
    return ", ".join(items)


def _chain(answer: Answer, hops: list[Hop]) -> None:
    performers = [h for h in hops if h.kind in ("performs", "performs_thru", "goes_to")]
    callers = [h for h in hops if h.kind in ("calls", "calls_dynamic")]
    steps = [h for h in hops if h.kind == "executes" and is_kind(h.src_key, Kind.STEP)]
    transactions = [h for h in hops if h.kind == "executes" and is_kind(h.src_key, Kind.TRAN)]
    if performers:
        answer.tell(
            "It is reached through PERFORM from {items}.", items=_unique(answer, performers)
        )
    if callers:
        answer.tell(
            "Programs that call into it (transitively): {items}.", items=_unique(answer, callers)
        )
    if transactions:
        answer.tell(
            "CICS transactions that run an affected program: {items}.",
            items=_unique(answer, transactions),
        )
    if steps:
        answer.tell(
            "JCL steps that run an affected program: {items}.", items=_unique(answer, steps)
        )
    answer.details.setdefault("performed_by", []).extend(label(h.src_key) for h in performers)
    answer.details.setdefault("callers", []).extend(label(h.src_key) for h in callers)
    answer.details.setdefault("jcl_steps", []).extend(label(h.src_key) for h in steps)
    answer.details.setdefault("transactions", []).extend(label(h.src_key) for h in transactions)


def _programs(keys: list[str]) -> list[str]:
    owned = (program_of(k) for k in keys if is_kind(k, Kind.PGM, Kind.PARA, Kind.SECT))
    return sorted({p for p in owned if p})


def _named_by_jcl(lens: LensInput, name: str, answer: Answer) -> None:
    named = lens.edges(dst=[make(Kind.MEMBER, name)], kinds=["names"])
    if named:
        answer.tell("JCL that names {name}: {items}.", name=name, items=_unique(answer, named))
        answer.details.setdefault("jcl_steps", []).extend(label(e.src_key) for e in named)


def _field_impact(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    first = group[0]
    keys = [e.key for e in group]
    uses = lens.edges(dst=keys, kinds=["reads", "writes"])
    origin = answer.word(" (from copybook {origin})", origin=first.origin) if first.origin else ""
    where = (
        answer.word(", defined at {where},", where=answer.cite(first.path, first.line_start))
        if lens.in_scope(first.path)
        else f" ({answer.word('defined outside the scope')})"
    )
    answer.tell(
        "Changing {name}{origin}{where} affects the code that uses it: {items}.",
        name=first.name,
        origin=origin,
        where=where,
        items=_unique(answer, uses) or answer.word("no statement uses it"),
    )
    sized = lens.edges(dst=keys, kinds=["depends_on"])
    if sized:
        answer.tell(
            "Tables whose size depends on it (OCCURS DEPENDING ON): {items}.",
            items=_unique(answer, sized),
        )
    programs = _programs([e.src_key for e in uses])
    if programs:
        answer.tell("Programs that use it: {items}.", items=listing(programs, 12, answer.lang))
    answer.details.setdefault("paragraphs", []).extend(label(e.src_key) for e in uses)
    answer.details.setdefault("programs", []).extend(programs)
    if first.origin:
        _copybook_impact(lens, first.origin, answer)
    _chain(answer, lens.upstream([program_key(p) for p in programs]))


def _copybook_impact(lens: LensInput, name: str, answer: Answer) -> list[str]:
    users = lens.edges(dst=[copybook_key(name)], kinds=["copies"])
    if users:
        shown = ", ".join(
            f"{label(e.src_key)} ({answer.cite(e.path, e.line)}"
            + (f", {e.detail}" if e.detail else "")
            + ")"
            for e in users
        )
        answer.tell(
            "Copybook {name} is copied by {items}; each must be recompiled.", name=name, items=shown
        )
    _named_by_jcl(lens, name, answer)
    programs = sorted({label(e.src_key) for e in users})
    answer.details.setdefault("programs", []).extend(programs)
    return programs


def _resource_impact(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    describe_resource(lens, [entity], answer)
    users = lens.edges(dst=[entity.key], kinds=ACTION_KINDS)
    cursors = [e.src_key for e in users if is_kind(e.src_key, Kind.CURSOR)]
    users += lens.edges(dst=cursors, kinds=["uses"])
    if entity.kind == "transaction":
        users += lens.edges(src=[entity.key], kinds=["executes"])
    programs = _programs(
        [e.src_key for e in users] + [e.dst_key for e in users if e.kind == "executes"]
    )
    if programs:
        answer.tell(
            "Programs affected by a change to {name}: {items}.",
            name=entity.name,
            items=listing(programs, 12, answer.lang),
        )
    answer.details.setdefault("programs", []).extend(programs)
    _chain(answer, lens.upstream([program_key(p) for p in programs]))


def _entity_impact(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    where = at(lens, answer, entity.path, entity.line_start)
    if entity.kind == "copybook":
        answer.tell(
            "Changing copybook {name} ({where}) affects every program that copies it.",
            name=entity.name,
            where=where,
        )
        programs = _copybook_impact(lens, entity.name, answer)
        _chain(answer, lens.upstream([program_key(p) for p in programs]))
        return
    if entity.kind in RESOURCE_KINDS:
        _resource_impact(lens, entity, answer)
        return
    if entity.kind == "dataset":
        used = lens.edges(dst=[entity.key], kinds=["reads", "writes"])
        answer.tell(
            "Changing dataset {name} ({where}) affects the steps that use it: {items}.",
            name=entity.name,
            where=where,
            items=_unique(answer, used),
        )
        runs = lens.edges(src=[e.src_key for e in used], kinds=["executes"])
        answer.details.setdefault("jcl_steps", []).extend(label(e.src_key) for e in used)
        answer.details.setdefault("programs", []).extend(label(e.dst_key) for e in runs)
        for file in lens.edges(dst=[entity.key], kinds=["assigns"]):
            found = lens.entities([file.src_key])
            if found:
                _resource_impact(lens, found[0], answer)
        return
    owner = (
        answer.word(" of {program}", program=entity.program)
        if entity.program and entity.kind != "program"
        else ""
    )
    answer.tell(
        "Changing {kind} {name}{owner} ({where}) affects what reaches it.",
        kind=answer.word(entity.kind),
        name=entity.name,
        owner=owner,
        where=where,
    )
    _chain(answer, lens.upstream([entity.key]))
    if entity.kind == "program":
        _named_by_jcl(lens, entity.name, answer)
    if entity.kind in ("paragraph", "section"):
        fields = sorted({e.dst_key for e in lens.edges(src=[entity.key], kinds=["writes"])})
        if fields:
            readers = [
                r for r in lens.edges(dst=fields, kinds=["reads"]) if r.src_key != entity.key
            ]
            written = ", ".join(label(f).split(".")[-1] for f in fields[:12])
            if readers:
                answer.tell(
                    "It writes {fields}, read downstream by {items}.",
                    fields=written,
                    items=_unique(answer, readers),
                )
            else:
                answer.tell("It writes {fields}.", fields=written)


def run_impact(lens: LensInput) -> Answer:
    """Transitive dependants of the entities named in the question, every one cited."""
    answer = Answer(
        "impact", lang=lens.lang, steps=["resolve entities", "graph: recursive upstream walk"]
    )
    resolved = resolve(lens)
    groups = resolved.strong[:2]
    if not groups:
        top = next((c for c in rank(lens, resolved) if not is_kind(c.key, Kind.DOC)), None)
        entity = entity_of(lens, top) if top is not None else None
        if entity is not None:
            answer.steps.insert(1, "hybrid search: the code the question is about")
            answer.tell(
                "The question names no program, field, file or copybook; the closest code is "
                "{name} ({where}).",
                name=label(entity.key),
                where=answer.cite(entity.path, entity.line_start),
            )
            groups = [[entity]]
    for group in groups:
        if group[0].kind in ("data", "condition"):
            _field_impact(lens, group, answer)
            continue
        for entity in [e for e in group if e.kind == group[0].kind][:2]:
            _entity_impact(lens, entity, answer)
    for key in ("performed_by", "callers", "jcl_steps", "programs", "paragraphs", "transactions"):
        if key in answer.details:
            answer.details[key] = sorted(set(answer.details[key]))
    if not answer.sentences:
        answer.tell(
            "I could not find a program, paragraph, field, copybook, table, file or dataset of "
            "that name in world {world}.",
            world=repr(lens.world_id),
        )
    return answer
