"""``EXEC CICS`` and ``EXEC SQL`` blocks as graph facts.

CICS: ``LINK``/``XCTL PROGRAM`` (calls), ``START``/``RETURN TRANSID`` (transactions started),
``READ``/``READNEXT``/``READPREV``/``STARTBR`` and ``WRITE``/``REWRITE``/``DELETE`` on
``FILE``/``DATASET``, ``WRITEQ``/``READQ``/``DELETEQ`` on ``QUEUE``, named ``COUNTER``s,
``SEND``/``RECEIVE MAP`` (with its ``MAPSET``) and ``ABEND ABCODE``. A resource named by a
data item instead of a literal is resolved through the item's ``VALUE`` and the literals
the program moves into it. SQL: the tables each statement reads or writes
(``SELECT … FROM``/``JOIN``, ``INSERT INTO``, ``UPDATE``, ``DELETE FROM``), cursors
(``DECLARE … CURSOR FOR``, used by ``OPEN``/``FETCH``/``CLOSE``) and host variables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from vigia.worlds.graph.keys import Kind, make
from vigia.worlds.ingest.cobol.tokens import Token, literal_value

# (CICS command, option) → (edge kind, key prefix, entity kind)
_RESOURCES: dict[tuple[str, str], tuple[str, Kind, str]] = {
    **{(c, "PROGRAM"): ("calls", Kind.PGM, "program") for c in ("LINK", "XCTL")},
    **{(c, "TRANSID"): ("starts", Kind.TRAN, "transaction") for c in ("START", "RETURN")},
    **{
        (c, o): ("reads", Kind.FILE, "cics_file")
        for c in ("READ", "READNEXT", "READPREV", "STARTBR", "RESETBR")
        for o in ("FILE", "DATASET")
    },
    **{
        (c, o): ("writes", Kind.FILE, "cics_file")
        for c in ("WRITE", "REWRITE", "DELETE", "UNLOCK")
        for o in ("FILE", "DATASET")
    },
    **{
        (c, o): ("writes", Kind.QUEUE, "queue")
        for c in ("WRITEQ", "DELETEQ")
        for o in ("QUEUE", "QNAME")
    },
    **{("READQ", o): ("reads", Kind.QUEUE, "queue") for o in ("QUEUE", "QNAME")},
    **{
        (c, o): ("reads" if c in ("GET", "QUERY") else "writes", Kind.COUNTER, "counter")
        for c in ("GET", "QUERY", "UPDATE", "DEFINE", "DELETE", "REWIND")
        for o in ("COUNTER", "DCOUNTER")
    },
    ("SEND", "MAP"): ("sends", Kind.MAP, "map"),
    ("RECEIVE", "MAP"): ("receives", Kind.MAP, "map"),
    ("SEND", "MAPSET"): ("sends", Kind.MAPSET, "mapset"),
    ("RECEIVE", "MAPSET"): ("receives", Kind.MAPSET, "mapset"),
    ("ABEND", "ABCODE"): ("abends", Kind.ABEND, "abend_code"),
}
_WRITTEN_OPTIONS = frozenset({"INTO", "SET", "RESP", "RESP2", "VALUE"})
_CLAUSE_END = (
    r"(?=\bWHERE\b|\bGROUP\b|\bORDER\b|\bHAVING\b|\bFETCH\b|\bFOR\b|\bUNION\b|\bWITH\b"
    r"|\bEND-EXEC\b|\bINTO\b|\bSET\b|\bVALUES\b|\)|;|$)"
)
_FROM = re.compile(r"\bFROM\s+(.*?)" + _CLAUSE_END)
_JOIN = re.compile(r"\bJOIN\s+([A-Z0-9_.<>\"$#@]+)")
_WRITE_TABLE = re.compile(r"^(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([A-Z0-9_.<>\"$#@]+)")
_CURSOR = re.compile(r"^DECLARE\s+([A-Z0-9_-]+)\s+(?:\w+\s+)*?CURSOR\b")
_CURSOR_USE = re.compile(r"^(OPEN|FETCH(?:\s+NEXT)?(?:\s+FROM)?|CLOSE)\s+([A-Z0-9_-]+)")
_ITEM_SPLIT = re.compile(r",|\b(?:LEFT|RIGHT|FULL|INNER|OUTER|CROSS)?\s*JOIN\b")
_NOT_TABLES = frozenset({"SYSIBM", "TABLE", "DUAL", "SELECT", "LATERAL", "FINAL", "NEW", "OLD"})


@dataclass(frozen=True)
class Resource:
    """A resource an EXEC block names: edge kind, key, entity kind, name, and the command."""

    edge: str
    key: str
    kind: str
    name: str
    detail: str
    token: Token


def cics_options(body: list[Token]) -> tuple[list[str], dict[str, list[Token]]]:
    """The command words and the ``OPTION(value…)`` pairs of an EXEC CICS body."""
    words: list[str] = []
    options: dict[str, list[Token]] = {}
    i = 0
    while i < len(body):
        token = body[i]
        if i + 1 < len(body) and body[i + 1].text == "(" and not token.is_literal:
            depth, j, value = 1, i + 2, []
            while j < len(body) and depth:
                if body[j].text == "(":
                    depth += 1
                elif body[j].text == ")":
                    depth -= 1
                if depth:
                    value.append(body[j])
                j += 1
            options.setdefault(token.text, value)
            i = j
            continue
        if not token.is_literal and token.text not in ("(", ")"):
            words.append(token.text)
        i += 1
    return words, options


def cics_resources(
    body: list[Token], values: Callable[[str], list[str]]
) -> tuple[list[Resource], list[tuple[str, Token]]]:
    """Resources named by one EXEC CICS block, and its data names as (reads|writes, token).

    ``values`` gives the literal values a data item may hold (its VALUE, literals moved)."""
    words, options = cics_options(body)
    command = words[0] if words else (next(iter(options), ""))
    resources: list[Resource] = []
    fields: list[tuple[str, Token]] = []
    for option, value in options.items():
        mode = "writes" if option in _WRITTEN_OPTIONS else "reads"
        fields += [(mode, t) for t in value if not t.is_literal and t.text not in ("(", ")")]
        target = _RESOURCES.get((command, option))
        if target is None or not value:
            continue
        edge, prefix, kind = target
        first = value[0]
        names = [literal_value(first)] if first.is_literal else values(first.text)
        queue = [w for w in words[1:2] if w in ("TS", "TD")]
        detail = " ".join(["CICS", command, *queue])
        if prefix is Kind.MAP and "MAPSET" in options and options["MAPSET"]:
            mapset = options["MAPSET"][0]
            shown = literal_value(mapset) if mapset.is_literal else mapset.text
            detail += f" MAPSET({shown})"
        for name in names:
            name = name.strip().upper()
            if name and re.match(r"^[A-Z0-9#@$._-]+$", name):
                resources.append(Resource(edge, make(prefix, name), kind, name, detail, first))
    return resources, fields


@dataclass(frozen=True)
class SqlFacts:
    """What one EXEC SQL statement does: its verb, tables read and written, cursors."""

    verb: str
    reads: tuple[str, ...]
    writes: tuple[str, ...]
    declares: str | None
    uses_cursor: str | None


def table_name(raw: str) -> str | None:
    """``<DB>.customer_secure`` → ``CUSTOMER_SECURE``; None for what is not a table."""
    name = raw.strip().strip('"').rsplit(".", 1)[-1].strip('"').upper()
    if not name or name.startswith((":", "(")) or name in _NOT_TABLES:
        return None
    return name if re.match(r"^[A-Z][A-Z0-9_$#@]*$", name) else None


def _from_tables(text: str) -> list[str]:
    found: list[str] = []
    for clause in _FROM.finditer(text):
        for item in _ITEM_SPLIT.split(clause.group(1)):
            words = item.split()
            name = table_name(words[0]) if words else None
            if name and name not in found:
                found.append(name)
    for join in _JOIN.finditer(text):
        name = table_name(join.group(1))
        if name and name not in found:
            found.append(name)
    return found


def sql_facts(block: str) -> SqlFacts:
    """Tables and cursors of the text after ``EXEC SQL`` (upper-cased here)."""
    text = " ".join(block.upper().replace("END-EXEC", " ").split())
    verb = text.split(" ", 1)[0] if text else ""
    writes: list[str] = []
    written = _WRITE_TABLE.match(text)
    if written and (name := table_name(written.group(1))):
        writes.append(name)
    reads = [t for t in _from_tables(text) if t not in writes or verb == "SELECT"]
    if verb == "DELETE":
        reads = [t for t in reads if t not in writes]
    declared = _CURSOR.match(text)
    used = _CURSOR_USE.match(text)
    return SqlFacts(
        verb,
        tuple(reads),
        tuple(writes),
        declared.group(1) if declared else None,
        used.group(2) if used and not declared else None,
    )
