"""Facts about one named entity, stated with citations (used by the qa lens and others)."""

from __future__ import annotations

from vigia.worlds.graph import label
from vigia.worlds.lenses.common import Answer, LensInput, cited, names
from vigia.worlds.lenses.resources import actions, describe_resource, state_actions
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


def describe_data(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    first = group[0]
    programs = sorted({e.program for e in group if e.program})
    shape = f"level {first.level:02d} " if first.level is not None else ""
    what = "condition name" if first.kind == "condition" else "data item"
    extra = f" ({first.detail})" if first.detail else ""
    origin = f" in copybook {first.origin}" if first.origin else ""
    where = f" ({answer.cite(first.path, first.line_start)})" if lens.in_scope(first.path) else ""
    answer.say(
        f"{first.name} is a {shape}{what}{extra} defined{origin}{where} and used by program"
        f"{'s' if len(programs) > 1 else ''} {', '.join(programs)}."
    )
    keys = [e.key for e in group]
    writers = lens.edges(dst=keys, kinds=["writes"])
    readers = lens.edges(dst=keys, kinds=["reads"])
    if writers:
        answer.say(f"It is written by {cited(answer, writers, True)}.")
    if readers:
        answer.say(f"It is read by {cited(answer, readers, True)}.")
    sized = lens.edges(dst=keys, kinds=["depends_on"])
    if sized:
        answer.say(f"The number of occurrences of {cited(answer, sized, True)} depends on it.")
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
    what = f"{entity.kind} of program {entity.program}"
    comment = f": {entity.detail.rstrip('.')}" if entity.detail else ""
    answer.say(
        f"{entity.name} is a {what} ({answer.cite(entity.path, entity.line_start)}"
        f"-{entity.line_end}){comment}."
    )
    out = lens.edges(src=[entity.key])
    reads = sorted({label(e.dst_key).split(".")[-1] for e in out if e.kind == "reads"})
    writes = sorted({label(e.dst_key).split(".")[-1] for e in out if e.kind == "writes"})
    fields = [
        *(["reads " + ", ".join(reads[:10])] if reads else []),
        *(["writes " + ", ".join(writes[:10])] if writes else []),
    ]
    if fields:
        answer.say(f"It {' and '.join(fields)}.")
    performs = [e for e in out if e.kind == "performs"]
    if performs:
        answer.say(f"It performs {cited(answer, performs, False)}.")
    state_actions(answer, actions(lens, [entity.key]), "It")
    incoming = lens.edges(dst=[entity.key], kinds=["performs", "performs_thru", "goes_to"])
    if incoming:
        answer.say(f"It is performed by {cited(answer, incoming, True)}.")
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
    sections = [e.dst_key for e in contained if e.dst_key.startswith("SECT:")]
    if sections:
        keys += [e.dst_key for e in lens.edges(src=sections, kinds=["contains"])]
    return keys


def describe_program(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    about = f": {entity.detail.rstrip('.')}" if entity.detail else ""
    answer.say(
        f"{entity.name} is a COBOL program ({answer.cite(entity.path, entity.line_start)}"
        f"-{entity.line_end}){about}."
    )
    incoming = lens.edges(dst=[entity.key], kinds=[*CALLS, "executes"])
    callers = [e for e in incoming if e.kind != "executes"]
    if callers:
        answer.say(f"It is called by {cited(answer, callers, True)}.")
    transactions = [e for e in incoming if e.src_key.startswith("TRAN:")]
    if transactions:
        answer.say(f"Transaction {cited(answer, transactions, True)} runs it.")
    steps = [e for e in incoming if e.kind == "executes" and e.src_key.startswith("STEP:")]
    if steps:
        answer.say(f"JCL runs it in {cited(answer, steps, True)}.")
    copies = lens.edges(src=[entity.key], kinds=["copies"])
    if copies:
        answer.say(f"It copies {names([e.dst_key for e in copies])}.")
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
    answer.say(f"{entity.name} is a copybook ({answer.cite(entity.path, 1)}).")
    users = lens.edges(dst=[entity.key], kinds=["copies"])
    if users:
        answer.say(f"It is copied by {cited(answer, users, True, limit=10)}.")
        replacing = sorted({f"{label(e.src_key)} {e.detail}" for e in users if e.detail})
        if replacing:
            answer.say("With REPLACING: " + "; ".join(replacing) + ".")
    named = lens.edges(dst=[f"MEMBER:{entity.name}"], kinds=["names"])
    if named:
        answer.say(f"JCL names it in {cited(answer, named, True, limit=8)}.")
    answer.details.setdefault("entities", []).append(
        {"name": entity.name, "kind": "copybook", "copied_by": [label(e.src_key) for e in users]}
    )


def describe_jcl(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    where = answer.cite(entity.path, entity.line_start)
    if entity.kind == "dataset":
        answer.say(f"{entity.name} is a dataset ({where}).")
        used = lens.edges(dst=[entity.key], kinds=["reads", "writes"])
        for kind in ("writes", "reads"):
            steps = [e for e in used if e.kind == kind]
            if steps:
                verb = "written" if kind == "writes" else "read"
                answer.say(
                    f"It is {verb} by {cited(answer, steps, True, 8)}"
                    f" ({', '.join(_step_programs(lens, [e.src_key for e in steps]))})."
                )
        files = lens.edges(dst=[entity.key], kinds=["assigns"])
        if files:
            answer.say(f"CICS reaches it as file {cited(answer, files, True)}.")
        return
    if entity.kind == "job":
        steps = lens.edges(src=[entity.key], kinds=["contains"])
        runs = _step_programs(lens, [e.dst_key for e in steps])
        answer.say(
            f"{entity.name} is a JCL job ({where}) with steps "
            f"{cited(answer, steps, False, 10)} running {', '.join(runs)}."
        )
        return
    answer.say(f"{entity.name} is a JCL {entity.kind} ({where}), {entity.detail or ''}.")


def _step_programs(lens: LensInput, step_keys: list[str]) -> list[str]:
    runs = lens.edges(src=step_keys, kinds=["executes"])
    return list(dict.fromkeys(label(e.dst_key) for e in runs if label(e.dst_key) != "IKJEFT01"))


def describe_other(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    owner = f" of program {entity.program}" if entity.program else ""
    answer.say(
        f"{entity.name} is a {entity.kind}{owner} ({answer.cite(entity.path, entity.line_start)})."
    )
    incoming = lens.edges(dst=[entity.key])
    if incoming:
        answer.say(f"It is used by {cited(answer, incoming, True)}.")


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
