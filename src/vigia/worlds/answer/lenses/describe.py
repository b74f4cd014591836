"""Facts about one named entity, stated with citations (used by the qa lens and others)."""

from __future__ import annotations

from vigia.worlds.answer.lenses.common import Answer, LensInput, at, cited, names
from vigia.worlds.answer.lenses.resources import actions, describe_resource, state_actions
from vigia.worlds.graph.keys import Kind, is_kind, make
from vigia.worlds.graph.queries import label
from vigia.worlds.models import WorldEntity

RESOURCE_KINDS = (
    "transaction",
    "cics_file",
    "queue",
    "counter",
    "map",
    "mapset",
    "table",
    "cursor",
    "abend_code",
)
CALLS = ["calls", "calls_dynamic"]


def _about(lens: LensInput, entity: WorldEntity) -> str:
    """``: its purpose`` (what its comments say) when its definition is in scope."""
    if not entity.detail or not lens.in_scope(entity.path):
        return ""
    return f": {entity.detail.rstrip('.')}"


def describe_data(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    first = group[0]
    programs = sorted({e.program for e in group if e.program})
    level = first.level
    shape = answer.word("level {level} ", level=f"{level:02d}") if level is not None else ""
    what = answer.word("condition name" if first.kind == "condition" else "data item")
    extra = f" ({first.detail})" if first.detail and lens.in_scope(first.path) else ""
    origin = answer.word(" in copybook {origin}", origin=first.origin) if first.origin else ""
    where = f" ({at(lens, answer, first.path, first.line_start)})"
    users = answer.word("programs" if len(programs) > 1 else "program")
    answer.tell(
        "{name} is a {what}{extra} defined{origin}{where} and used by {programs}.",
        name=first.name,
        what=f"{shape}{what}",
        extra=extra,
        origin=origin,
        where=where,
        programs=f"{users} {', '.join(programs)}",
    )
    keys = [e.key for e in group]
    writers = lens.edges(dst=keys, kinds=["writes"])
    readers = lens.edges(dst=keys, kinds=["reads"])
    if writers:
        answer.tell("It is written by {items}.", items=cited(answer, writers, True))
    if readers:
        answer.tell("It is read by {items}.", items=cited(answer, readers, True))
    sized = lens.edges(dst=keys, kinds=["depends_on"])
    if sized:
        answer.tell(
            "The number of occurrences of {items} depends on it.",
            items=cited(answer, sized, True),
        )
    answer.details.setdefault("entities", []).append(
        {
            "name": first.name,
            "kind": first.kind,
            "programs": programs,
            "written_by": sorted({label(e.src_key) for e in writers}),
            "read_by": sorted({label(e.src_key) for e in readers}),
        }
    )


def describe_paragraph(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    comment = _about(lens, entity)
    answer.tell(
        "{name} is a {kind} of program {program} ({span}){about}.",
        name=entity.name,
        kind=answer.word(entity.kind),
        program=entity.program,
        span=at(lens, answer, entity.path, entity.line_start, entity.line_end),
        about=comment,
    )
    out = lens.edges(src=[entity.key])
    reads = sorted({label(e.dst_key).split(".")[-1] for e in out if e.kind == "reads"})
    writes = sorted({label(e.dst_key).split(".")[-1] for e in out if e.kind == "writes"})
    read, written = ", ".join(reads[:10]), ", ".join(writes[:10])
    if reads and writes:
        answer.tell("It reads {reads} and writes {writes}.", reads=read, writes=written)
    elif reads:
        answer.tell("It reads {reads}.", reads=read)
    elif writes:
        answer.tell("It writes {writes}.", writes=written)
    performs = [e for e in out if e.kind == "performs"]
    if performs:
        answer.tell("It performs {items}.", items=cited(answer, performs, False))
    state_actions(answer, actions(lens, [entity.key]), "It")
    incoming = lens.edges(dst=[entity.key], kinds=["performs", "performs_thru", "goes_to"])
    if incoming:
        answer.tell("It is performed by {items}.", items=cited(answer, incoming, True))
    answer.details.setdefault("entities", []).append(
        {
            "name": entity.name,
            "kind": entity.kind,
            "program": entity.program,
            "reads": reads,
            "writes": writes,
            "performed_by": sorted({label(e.src_key) for e in incoming}),
        }
    )


def program_parts(lens: LensInput, program: WorldEntity) -> list[str]:
    """The program's key with its sections' and paragraphs' keys."""
    contained = lens.edges(src=[program.key], kinds=["contains"])
    keys = [program.key, *[e.dst_key for e in contained]]
    sections = [e.dst_key for e in contained if is_kind(e.dst_key, Kind.SECT)]
    if sections:
        keys += [e.dst_key for e in lens.edges(src=sections, kinds=["contains"])]
    return keys


def describe_program(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    about = _about(lens, entity)
    answer.tell(
        "{name} is a COBOL program ({span}){about}.",
        name=entity.name,
        span=at(lens, answer, entity.path, entity.line_start, entity.line_end),
        about=about,
    )
    incoming = lens.edges(dst=[entity.key], kinds=[*CALLS, "executes"])
    callers = [e for e in incoming if e.kind != "executes"]
    if callers:
        answer.tell("It is called by {items}.", items=cited(answer, callers, True))
    transactions = [e for e in incoming if is_kind(e.src_key, Kind.TRAN)]
    if transactions:
        answer.tell("Transaction {items} runs it.", items=cited(answer, transactions, True))
    steps = [e for e in incoming if e.kind == "executes" and is_kind(e.src_key, Kind.STEP)]
    if steps:
        answer.tell("JCL runs it in {items}.", items=cited(answer, steps, True))
    copies = lens.edges(src=[entity.key], kinds=["copies"])
    if copies:
        answer.tell("It copies {items}.", items=names([e.dst_key for e in copies], 8, answer.lang))
    state_actions(answer, actions(lens, program_parts(lens, entity)), "It", limit=10)
    answer.details.setdefault("entities", []).append(
        {
            "name": entity.name,
            "kind": "program",
            "called_by": sorted({label(e.src_key) for e in callers}),
            "transactions": sorted({label(e.src_key) for e in transactions}),
        }
    )


def describe_copybook(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    about = _about(lens, entity)
    answer.tell(
        "{name} is a copybook ({where}){about}.",
        name=entity.name,
        where=at(lens, answer, entity.path, 1),
        about=about,
    )
    users = lens.edges(dst=[entity.key], kinds=["copies"])
    if users:
        answer.tell("It is copied by {items}.", items=cited(answer, users, True, limit=10))
        replacing = sorted({f"{label(e.src_key)} {e.detail}" for e in users if e.detail})
        if replacing:
            answer.tell("With REPLACING: {items}.", items="; ".join(replacing))
    named = lens.edges(dst=[make(Kind.MEMBER, entity.name)], kinds=["names"])
    if named:
        answer.tell("JCL names it in {items}.", items=cited(answer, named, True, limit=8))
    answer.details.setdefault("entities", []).append(
        {"name": entity.name, "kind": "copybook", "copied_by": [label(e.src_key) for e in users]}
    )


def describe_jcl(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    where = at(lens, answer, entity.path, entity.line_start)
    if entity.kind == "dataset":
        answer.tell("{name} is a dataset ({where}).", name=entity.name, where=where)
        used = lens.edges(dst=[entity.key], kinds=["reads", "writes"])
        for kind in ("writes", "reads"):
            steps = [e for e in used if e.kind == kind]
            if steps:
                answer.tell(
                    "It is written by {items} ({programs})."
                    if kind == "writes"
                    else "It is read by {items} ({programs}).",
                    items=cited(answer, steps, True, 8),
                    programs=", ".join(_step_programs(lens, [e.src_key for e in steps])),
                )
        files = lens.edges(dst=[entity.key], kinds=["assigns"])
        if files:
            answer.tell("CICS reaches it as file {items}.", items=cited(answer, files, True))
        return
    if entity.kind == "job":
        steps = lens.edges(src=[entity.key], kinds=["contains"])
        runs = _step_programs(lens, [e.dst_key for e in steps])
        about = _about(lens, entity)
        answer.tell(
            "{name} is a JCL job ({where}){about}. Its steps {steps} run {programs}.",
            name=entity.name,
            where=where,
            about=about,
            steps=cited(answer, steps, False, 10),
            programs=", ".join(runs),
        )
        return
    answer.tell(
        "{name} is a JCL {kind} ({where}), {detail}.",
        name=entity.name,
        kind=answer.word(entity.kind),
        where=where,
        detail=entity.detail or "",
    )


def _step_programs(lens: LensInput, step_keys: list[str]) -> list[str]:
    runs = lens.edges(src=step_keys, kinds=["executes"])
    return list(dict.fromkeys(label(e.dst_key) for e in runs if label(e.dst_key) != "IKJEFT01"))


def describe_other(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    owner = answer.word(" of program {program}", program=entity.program) if entity.program else ""
    answer.tell(
        "{name} is a {kind}{owner} ({where}).",
        name=entity.name,
        kind=answer.word(entity.kind),
        owner=owner,
        where=at(lens, answer, entity.path, entity.line_start),
    )
    incoming = lens.edges(dst=[entity.key])
    if incoming:
        answer.tell("It is used by {items}.", items=cited(answer, incoming, True))


def describe(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    """States what the graph knows about the entities of one name."""
    kind = group[0].kind
    if kind in ("data", "condition"):
        describe_data(lens, group, answer)
        return
    if kind in RESOURCE_KINDS:
        describe_resource(lens, group, answer)
        return
    for entity in [e for e in group if e.kind == kind][:3]:
        if entity.kind in ("paragraph", "section"):
            describe_paragraph(lens, entity, answer)
        elif entity.kind == "program":
            describe_program(lens, entity, answer)
        elif entity.kind == "copybook":
            describe_copybook(lens, entity, answer)
        elif entity.kind in ("dataset", "job", "step", "proc"):
            describe_jcl(lens, entity, answer)
        elif entity.kind in RESOURCE_KINDS:
            describe_resource(lens, [entity], answer)
        else:
            describe_other(lens, entity, answer)
