"""What code does to the resources it names — tables, CICS files, queues, counters, maps,
transactions, other programs — in words, with citations; and facts about one resource."""

from __future__ import annotations

from vigia.worlds.graph import label
from vigia.worlds.lenses.common import Answer, LensInput, cited, listing
from vigia.worlds.models import WorldEdge, WorldEntity

RESOURCE_PREFIXES = ("TABLE", "FILE", "QUEUE", "COUNTER", "MAP", "TRAN", "PGM", "ABEND", "CURSOR")
ACTION_KINDS = [
    "reads",
    "writes",
    "calls",
    "calls_dynamic",
    "starts",
    "sends",
    "receives",
    "abends",
    "uses",
]
NOUNS = {
    "TABLE": "table",
    "FILE": "file",
    "QUEUE": "queue",
    "COUNTER": "counter",
    "MAP": "map",
    "MAPSET": "mapset",
    "TRAN": "transaction",
    "ABEND": "abend code",
    "CURSOR": "cursor",
    "PGM": "program",
}
_SQL_VERBS = {
    "SQL INSERT": "inserts into",
    "SQL UPDATE": "updates",
    "SQL DELETE": "deletes from",
    "SQL SELECT": "selects from",
    "SQL DECLARE": "declares a cursor on",
}


def is_resource(key: str) -> bool:
    return key.split(":", 1)[0] in RESOURCE_PREFIXES


def verb_phrase(edge: WorldEdge) -> str:
    """``inserts into table POLICY``, ``links to LGAPDB01``, ``writes queue CSMT``…"""
    prefix = edge.dst_key.split(":", 1)[0]
    name = label(edge.dst_key)
    noun = NOUNS.get(prefix, "")
    detail = edge.detail or ""
    if prefix == "TABLE" and detail in _SQL_VERBS:
        return f"{_SQL_VERBS[detail]} table {name}"
    if edge.kind in ("calls", "calls_dynamic"):
        how = "links to" if "LINK" in detail else "transfers to" if "XCTL" in detail else "calls"
        return f"{how} {name}"
    verbs = {
        "reads": "reads",
        "writes": "writes",
        "starts": "starts",
        "sends": "sends",
        "receives": "receives",
        "abends": "abends with",
        "uses": "uses",
    }
    shown = f" ({detail})" if detail and prefix in ("FILE", "QUEUE", "COUNTER") else ""
    return f"{verbs.get(edge.kind, edge.kind)} {noun} {name}{shown}".replace("  ", " ")


def use_word(edge: WorldEdge) -> str:
    """The command that uses a resource: ``INSERT``, ``WRITEQ TD``, ``LINK``, ``OPEN``…"""
    detail = (edge.detail or "").split(" ", 1)
    return detail[1] if len(detail) == 2 and detail[0] in ("SQL", "CICS") else edge.kind


def actions(lens: LensInput, src_keys: list[str]) -> list[WorldEdge]:
    """The resource edges from ``src_keys`` (paragraphs, a program…), one per action."""
    found = [e for e in lens.edges(src=src_keys, kinds=ACTION_KINDS) if is_resource(e.dst_key)]
    seen: dict[tuple[str, str, str | None], WorldEdge] = {}
    for edge in found:
        seen.setdefault((edge.kind, edge.dst_key, edge.detail), edge)
    return list(seen.values())


def state_actions(answer: Answer, found: list[WorldEdge], subject: str, limit: int = 8) -> None:
    """``{subject} inserts into table POLICY (path:line), links to X (path:line)….``"""
    if not found:
        return
    items = [f"{verb_phrase(e)} ({answer.cite(e.path, e.line)})" for e in found[:limit]]
    if len(found) > limit:
        items.append(f"{len(found) - limit} more")
    answer.say(f"{subject} {listing(items, limit + 1)}.")


def _users(lens: LensInput, keys: list[str], kinds: list[str]) -> list[WorldEdge]:
    found = lens.edges(dst=keys, kinds=kinds)
    cursors = [e.src_key for e in found if e.src_key.startswith("CURSOR:")]
    if cursors:  # a table read through a cursor: the paragraphs that open or fetch it
        found = [e for e in found if not e.src_key.startswith("CURSOR:")]
        found += lens.edges(dst=cursors, kinds=["uses"])
    return found


def describe_resource(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    """Where a resource is defined and which code uses it, by kind of use."""
    first = group[0]
    noun = {"cics_file": "CICS file", "abend_code": "abend code"}.get(first.kind, first.kind)
    defined = [e for e in group if e.program is None] or group[:1]
    where = ", ".join(answer.cite(e.path, e.line_start) for e in defined[:2])
    about = f", {first.detail}" if first.detail and first.program is None else ""
    answer.say(f"{first.name} is a {noun} ({where}{about}).")
    keys = [first.key]
    if first.kind == "transaction":
        runs = lens.edges(src=keys, kinds=["executes"])
        if runs:
            answer.say(f"Transaction {first.name} runs {cited(answer, runs, False)}.")
    found = _users(lens, keys, ACTION_KINDS)
    if found:
        firsts: dict[tuple[str, str], WorldEdge] = {}
        for edge in found:
            firsts.setdefault((edge.src_key, use_word(edge)), edge)
        items = [
            f"{label(k)} ({how}, {answer.cite(e.path, e.line)})"
            for (k, how), e in list(firsts.items())[:10]
        ]
        if len(firsts) > 10:
            items.append(f"{len(firsts) - 10} more")
        answer.say(f"It is used by {listing(items, 11)}.")
    assigned = lens.edges(src=keys, kinds=["assigns"])
    if assigned:
        answer.say(f"It is the dataset {cited(answer, assigned, False)}.")
    programs = sorted({label(e.src_key).split(".")[0] for e in found})
    answer.details.setdefault("entities", []).append(
        {"name": first.name, "kind": first.kind, "used_by": programs}
    )
