"""What code does to the resources it names — tables, CICS files, queues, counters, maps,
transactions, other programs — in words, with citations; and facts about one resource."""

from __future__ import annotations

from vigia.worlds.answer.lenses.common import Answer, LensInput, at, cited, listing
from vigia.worlds.answer.lenses.wording import word
from vigia.worlds.graph.keys import Kind, is_kind, kind_of
from vigia.worlds.graph.queries import label
from vigia.worlds.models import WorldEdge, WorldEntity

RESOURCE_KINDS = frozenset(
    {
        Kind.TABLE,
        Kind.FILE,
        Kind.QUEUE,
        Kind.COUNTER,
        Kind.MAP,
        Kind.TRAN,
        Kind.PGM,
        Kind.ABEND,
        Kind.CURSOR,
    }
)
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
    Kind.TABLE: "table",
    Kind.FILE: "file",
    Kind.QUEUE: "queue",
    Kind.COUNTER: "counter",
    Kind.MAP: "map",
    Kind.MAPSET: "mapset",
    Kind.TRAN: "transaction",
    Kind.ABEND: "abend code",
    Kind.CURSOR: "cursor",
    Kind.PGM: "program",
}
_SQL_VERBS = {
    "SQL INSERT": "inserts into",
    "SQL UPDATE": "updates",
    "SQL DELETE": "deletes from",
    "SQL SELECT": "selects from",
    "SQL DECLARE": "declares a cursor on",
}
_VERBS = {
    "reads": "reads",
    "writes": "writes",
    "starts": "starts",
    "sends": "sends",
    "receives": "receives",
    "abends": "abends with",
    "uses": "uses",
}
# English verb → (Spanish, Portuguese); the command that proves it stays in the citation.
VERB_WORDS: dict[str, tuple[str, str]] = {
    "inserts into": ("inserta en", "insere em"),
    "updates": ("actualiza", "atualiza"),
    "deletes from": ("borra de", "apaga de"),
    "selects from": ("selecciona de", "seleciona de"),
    "declares a cursor on": ("declara un cursor sobre", "declara um cursor sobre"),
    "links to": ("enlaza (LINK) con", "faz LINK para"),
    "transfers to": ("transfiere (XCTL) a", "transfere (XCTL) para"),
    "calls": ("llama a", "chama"),
    "reads": ("lee", "lê"),
    "writes": ("escribe", "escreve"),
    "starts": ("inicia", "inicia"),
    "sends": ("envía", "envia"),
    "receives": ("recibe", "recebe"),
    "abends with": ("termina con", "termina com"),
    "uses": ("usa", "usa"),
}


def _verb(english: str, lang: str) -> str:
    if lang in ("es", "pt") and english in VERB_WORDS:
        return VERB_WORDS[english][0 if lang == "es" else 1]
    return english


def is_resource(key: str) -> bool:
    return kind_of(key) in RESOURCE_KINDS


def verb_phrase(edge: WorldEdge, lang: str = "en") -> str:
    """``inserts into table POLICY``, ``links to LGAPDB01``, ``writes queue CSMT``… (in
    ``lang``; names and commands as written)."""
    kind = kind_of(edge.dst_key)
    name = label(edge.dst_key)
    noun = word(lang, NOUNS[kind]) if kind is not None and kind in NOUNS else ""
    detail = edge.detail or ""
    if kind is Kind.TABLE and detail in _SQL_VERBS:
        return f"{_verb(_SQL_VERBS[detail], lang)} {word(lang, 'table')} {name}"
    if edge.kind in ("calls", "calls_dynamic"):
        how = "links to" if "LINK" in detail else "transfers to" if "XCTL" in detail else "calls"
        return f"{_verb(how, lang)} {name}"
    shown = f" ({detail})" if detail and kind in (Kind.FILE, Kind.QUEUE, Kind.COUNTER) else ""
    verb = _verb(_VERBS.get(edge.kind, edge.kind), lang)
    return f"{verb} {noun} {name}{shown}".replace("  ", " ")


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
    items = [
        f"{verb_phrase(e, answer.lang)} ({answer.cite(e.path, e.line)})" for e in found[:limit]
    ]
    if len(found) > limit:
        items.append(f"{len(found) - limit} {answer.word('more')}")
    said = listing(items, limit + 1, answer.lang)
    subject = answer.word(subject) if subject == "It" else subject
    answer.say(f"{subject} {said}." if subject else f"{said[:1].upper()}{said[1:]}.")


def _users(lens: LensInput, keys: list[str], kinds: list[str]) -> list[WorldEdge]:
    found = lens.edges(dst=keys, kinds=kinds)
    cursors = [e.src_key for e in found if is_kind(e.src_key, Kind.CURSOR)]
    if cursors:  # a table read through a cursor: the paragraphs that open or fetch it
        found = [e for e in found if not is_kind(e.src_key, Kind.CURSOR)]
        found += lens.edges(dst=cursors, kinds=["uses"])
    return found


def describe_resource(lens: LensInput, group: list[WorldEntity], answer: Answer) -> None:
    """Where a resource is defined and which code uses it, by kind of use."""
    first = group[0]
    noun = {"cics_file": "CICS file", "abend_code": "abend code"}.get(first.kind, first.kind)
    defined = [e for e in group if e.program is None] or group[:1]
    where = ", ".join(dict.fromkeys(at(lens, answer, e.path, e.line_start) for e in defined[:2]))
    about = (
        f", {first.detail}"
        if first.detail and first.program is None and lens.in_scope(first.path)
        else ""
    )
    answer.tell(
        "{name} is a {kind} ({where}{about}).",
        name=first.name,
        kind=answer.word(noun),
        where=where,
        about=about,
    )
    keys = [first.key]
    if first.kind == "transaction":
        runs = lens.edges(src=keys, kinds=["executes"])
        if runs:
            answer.tell(
                "Transaction {name} runs {items}.",
                name=first.name,
                items=cited(answer, runs, False),
            )
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
            items.append(f"{len(firsts) - 10} {answer.word('more')}")
        answer.tell("It is used by {items}.", items=listing(items, 11, answer.lang))
    assigned = lens.edges(src=keys, kinds=["assigns"])
    if assigned:
        answer.tell("It is the dataset {items}.", items=cited(answer, assigned, False))
    programs = sorted({label(e.src_key).split(".")[0] for e in found})
    answer.details.setdefault("entities", []).append(
        {"name": first.name, "kind": first.kind, "used_by": programs}
    )
