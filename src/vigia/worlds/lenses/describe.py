"""Facts about one named entity, stated with citations (used by the qa lens and others)."""

from __future__ import annotations

from collections.abc import Callable

from vigia.worlds.graph import edges, entities_by_key, label
from vigia.worlds.lenses.common import Answer, LensInput, names
from vigia.worlds.models import WorldEdge, WorldEntity


def _first_per_source(found: list[WorldEdge], key: Callable[[WorldEdge], str]) -> list[WorldEdge]:
    seen: dict[str, WorldEdge] = {}
    for edge in found:
        seen.setdefault(key(edge), edge)
    return list(seen.values())


def _cited_list(answer: Answer, found: list[WorldEdge], use_src: bool, limit: int = 6) -> str:
    items = []
    for edge in found[:limit]:
        who = label(edge.src_key if use_src else edge.dst_key)
        items.append(f"{who} ({answer.cite(edge.path, edge.line)})")
    if len(found) > limit:
        items.append(f"{len(found) - limit} more")
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe_data(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    first = group[0]
    programs = sorted({e.program for e in group if e.program})
    shape = f"level {first.level:02d} " if first.level is not None else ""
    what = "condition name" if first.kind == "condition" else "data item"
    extra = f" ({first.detail})" if first.detail else ""
    origin = f" in copybook {first.origin}" if first.origin else ""
    answer.say(
        f"{first.name} is a {shape}{what}{extra} defined{origin} "
        f"({answer.cite(first.path, first.line_start)}) and used by program"
        f"{'s' if len(programs) > 1 else ''} {', '.join(programs)}."
    )
    keys = [e.key for e in group]
    writers = _first_per_source(
        edges(lens.session, lens.world_id, dst=keys, kinds=["writes"]), lambda e: e.src_key
    )
    readers = _first_per_source(
        edges(lens.session, lens.world_id, dst=keys, kinds=["reads"]), lambda e: e.src_key
    )
    if writers:
        answer.say(f"It is written by {_cited_list(answer, writers, True)}.")
    if readers:
        answer.say(f"It is read by {_cited_list(answer, readers, True)}.")
    answer.details.setdefault("entities", []).append(
        {
            "name": first.name,
            "kind": first.kind,
            "programs": programs,
            "written_by": [label(e.src_key) for e in writers],
            "read_by": [label(e.src_key) for e in readers],
        }
    )


def describe_paragraph(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    what = f"{entity.kind} of program {entity.program}"
    comment = f": {entity.detail.rstrip('.')}" if entity.detail else ""
    answer.say(
        f"{entity.name} is a {what} ({answer.cite(entity.path, entity.line_start)}"
        f"-{entity.line_end}){comment}."
    )
    out = edges(lens.session, lens.world_id, src=[entity.key])
    reads = sorted({label(e.dst_key).split(".")[-1] for e in out if e.kind == "reads"})
    writes = sorted({label(e.dst_key).split(".")[-1] for e in out if e.kind == "writes"})
    if reads or writes:
        parts = []
        if reads:
            parts.append("reads " + ", ".join(reads[:10]))
        if writes:
            parts.append("writes " + ", ".join(writes[:10]))
        answer.say(f"It {' and '.join(parts)}.")
    performs = _first_per_source([e for e in out if e.kind == "performs"], lambda e: e.dst_key)
    if performs:
        answer.say(f"It performs {_cited_list(answer, performs, False)}.")
    calls = _first_per_source([e for e in out if e.kind.startswith("calls")], lambda e: e.dst_key)
    if calls:
        answer.say(f"It calls {_cited_list(answer, calls, False)}.")
    incoming = _first_per_source(
        edges(
            lens.session,
            lens.world_id,
            dst=[entity.key],
            kinds=["performs", "performs_thru", "goes_to"],
        ),
        lambda e: e.src_key,
    )
    if incoming:
        answer.say(f"It is performed by {_cited_list(answer, incoming, True)}.")
    answer.details.setdefault("entities", []).append(
        {
            "name": entity.name,
            "kind": entity.kind,
            "program": entity.program,
            "reads": reads,
            "writes": writes,
            "performed_by": [label(e.src_key) for e in incoming],
        }
    )


def describe_program(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    about = f": {entity.detail.rstrip('.')}" if entity.detail else ""
    answer.say(
        f"{entity.name} is a COBOL program ({answer.cite(entity.path, entity.line_start)}"
        f"-{entity.line_end}){about}."
    )
    incoming = edges(
        lens.session, lens.world_id, dst=[entity.key], kinds=["calls", "calls_dynamic", "executes"]
    )
    callers = _first_per_source([e for e in incoming if e.kind != "executes"], lambda e: e.src_key)
    if callers:
        answer.say(f"It is called by {_cited_list(answer, callers, True)}.")
    steps = [e for e in incoming if e.kind == "executes"]
    if steps:
        answer.say(f"JCL runs it in {_cited_list(answer, steps, True)}.")
    out = edges(lens.session, lens.world_id, src=[entity.key], kinds=["copies"])
    if out:
        answer.say(f"It copies {names([e.dst_key for e in out])}.")
    inner = [k for k in _program_children(lens, entity)]
    out_calls = _first_per_source(
        edges(lens.session, lens.world_id, src=inner, kinds=["calls", "calls_dynamic"]),
        lambda e: e.dst_key,
    )
    if out_calls:
        answer.say(f"It calls {_cited_list(answer, out_calls, False)}.")
    answer.details.setdefault("entities", []).append(
        {
            "name": entity.name,
            "kind": "program",
            "called_by": [label(e.src_key) for e in callers],
            "calls": [label(e.dst_key) for e in out_calls],
        }
    )


def _program_children(lens: LensInput, program: WorldEntity) -> list[str]:
    contained = edges(lens.session, lens.world_id, src=[program.key], kinds=["contains"])
    keys = [program.key, *[e.dst_key for e in contained]]
    sections = [e.dst_key for e in contained if e.dst_key.startswith("SECT:")]
    if sections:
        keys += [
            e.dst_key for e in edges(lens.session, lens.world_id, src=sections, kinds=["contains"])
        ]
    return keys


def describe_copybook(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    answer.say(f"{entity.name} is a copybook ({answer.cite(entity.path, 1)}).")
    users = edges(lens.session, lens.world_id, dst=[entity.key], kinds=["copies"])
    if users:
        answer.say(f"It is copied by {_cited_list(answer, users, True, limit=10)}.")
        replacing = sorted({f"{label(e.src_key)} {e.detail}" for e in users if e.detail})
        if replacing:
            answer.say("With REPLACING: " + "; ".join(replacing) + ".")
    answer.details.setdefault("entities", []).append(
        {"name": entity.name, "kind": "copybook", "copied_by": [label(e.src_key) for e in users]}
    )


def describe_jcl(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    where = answer.cite(entity.path, entity.line_start)
    if entity.kind == "dataset":
        answer.say(f"{entity.name} is a dataset ({where}).")
        used = edges(lens.session, lens.world_id, dst=[entity.key], kinds=["reads", "writes"])
        for kind in ("writes", "reads"):
            steps = [e for e in used if e.kind == kind]
            if steps:
                verb = "written" if kind == "writes" else "read"
                answer.say(
                    f"It is {verb} by {_cited_list(answer, steps, True, 8)}"
                    f" ({', '.join(_step_programs(lens, [e.src_key for e in steps]))})."
                )
        return
    if entity.kind == "job":
        steps = edges(lens.session, lens.world_id, src=[entity.key], kinds=["contains"])
        runs = _step_programs(lens, [e.dst_key for e in steps])
        answer.say(
            f"{entity.name} is a JCL job ({where}) with steps "
            f"{_cited_list(answer, steps, False, 10)} running {', '.join(runs)}."
        )
        return
    answer.say(f"{entity.name} is a JCL {entity.kind} ({where}), {entity.detail or ''}.")


def _step_programs(lens: LensInput, step_keys: list[str]) -> list[str]:
    runs = edges(lens.session, lens.world_id, src=step_keys, kinds=["executes"])
    shown: list[str] = []
    for edge in runs:
        name = label(edge.dst_key)
        if name not in shown and name != "IKJEFT01":
            shown.append(name)
    return shown


def describe_other(lens: LensInput, entity: WorldEntity, answer: Answer) -> None:
    owner = f" of program {entity.program}" if entity.program else ""
    answer.say(
        f"{entity.name} is a {entity.kind}{owner} ({answer.cite(entity.path, entity.line_start)})."
    )
    incoming = edges(lens.session, lens.world_id, dst=[entity.key])
    if incoming:
        answer.say(f"It is used by {_cited_list(answer, incoming, True)}.")


def describe(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    """States what the graph knows about the entities of one name."""
    kind = group[0].kind
    if kind in ("data", "condition"):
        describe_data(lens, group, answer)
        return
    for entity in group[:3]:
        if entity.kind in ("paragraph", "section"):
            describe_paragraph(lens, entity, answer)
        elif entity.kind == "program":
            describe_program(lens, entity, answer)
        elif entity.kind == "copybook":
            describe_copybook(lens, entity, answer)
        elif entity.kind in ("dataset", "job", "step", "proc"):
            describe_jcl(lens, entity, answer)
        else:
            describe_other(lens, entity, answer)


def keys_of(lens: LensInput, keys: list[str]) -> list[WorldEntity]:
    return entities_by_key(lens.session, lens.world_id, keys)
