"""Definitions found in any text of a world (JCL in-stream data, SQL files, CSD listings):
CICS CSD ``DEFINE`` statements, DB2 ``CREATE TABLE`` and references to members by name.

- CSD (``DFHCSDUP``): ``DEFINE TRANSACTION(T) PROGRAM(P)`` → transaction ``TRAN:T`` that
  executes ``PGM:P``; ``DEFINE FILE(F) DSNAME(D)`` → CICS file ``FILE:F`` assigned to
  ``DSN:D``; ``DEFINE TDQUEUE(Q)`` → queue ``QUEUE:Q``. A statement runs over continuation
  lines until the next command or comment.
- DDL: ``CREATE TABLE [schema.]name (columns…)`` → table ``TABLE:NAME`` with its columns.
- Members: ``KEY=NAME`` and ``MEMBER(NAME)`` in control statements (``REQMEM=SOAIPM1``,
  ``MEM=LGACDB01``) → a ``names`` edge to ``MEMBER:NAME``, which impact follows for the
  copybook or program of that name.
"""

from __future__ import annotations

import re

from vigia.worlds.graph.extraction import Edge, Entity, Extraction
from vigia.worlds.graph.keys import Kind, make, program_key

Numbered = list[tuple[int, str]]

_CSD_COMMAND = re.compile(
    r"^\s*(DEFINE|ADD|ALTER|DELETE|LIST|APPEND|REMOVE|COPY|USERDEFINE|CHECK|INITIALIZE|UPGRADE)\b",
    re.I,
)
_ATTRIBUTE = re.compile(r"([A-Za-z][A-Za-z0-9]*)\s*\(\s*([^()]*?)\s*\)")
_CREATE_TABLE = re.compile(r"\bCREATE\s+(?:GLOBAL\s+TEMPORARY\s+)?TABLE\s+([^\s(]+)\s*\(?", re.I)
_COLUMN = re.compile(r"^\s*,?\s*([A-Za-z][A-Za-z0-9_]*)\s+[A-Za-z]")
_KEY_VALUE = re.compile(
    r"(?<![A-Za-z0-9&])([A-Za-z][A-Za-z0-9]{1,15})=([A-Za-z#@$][A-Za-z0-9#@$]{1,7})\b"
)
_MEMBER = re.compile(r"\bMEMBER\s*\(\s*([A-Za-z#@$][A-Za-z0-9#@$]{0,7})\s*\)", re.I)
_NOT_MEMBER_KEYS = frozenset(
    {
        "PGM",
        "PROC",
        "DISP",
        "DSN",
        "DSNAME",
        "UNIT",
        "VOL",
        "CLASS",
        "MSGCLASS",
        "NOTIFY",
        "TYPE",
        "MODE",
        "LANG",
        "STORAGE",
        "COND",
        "REGION",
        "TIME",
        "SYSOUT",
        "RECFM",
        "DSORG",
        "SPACE",
        "LRECL",
        "BLKSIZE",
        "PARM",
        "TYPRUN",
        "MSGLEVEL",
        "USER",
        "GROUP",
        "DCB",
    }
)
_COLUMN_WORDS = frozenset(
    {"PRIMARY", "FOREIGN", "CONSTRAINT", "UNIQUE", "CHECK", "REFERENCES", "ON", "CCSID", "IN"}
)


def _name(raw: str) -> str:
    return raw.strip().strip("'\"").rsplit(".", 1)[-1].strip("'\"").upper()


def _csd_statements(lines: Numbered) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each CSD command, continuation lines joined."""
    found: list[tuple[int, int, str]] = []
    for number, text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith(("*", "/*", "//")):
            continue
        if _CSD_COMMAND.match(stripped):
            found.append((number, number, stripped))
        elif found and found[-1][1] >= number - 3:
            first, _, body = found[-1]
            found[-1] = (first, number, f"{body} {stripped}")
    return found


def csd_definitions(lines: Numbered, path: str, out: Extraction) -> None:
    """Transactions, files and queues of CSD ``DEFINE`` statements in ``lines``."""
    if not any("DEFINE" in text.upper() for _, text in lines):
        return
    for first, last, body in _csd_statements(lines):
        if not body.upper().startswith("DEFINE"):
            continue
        attributes = {k.upper(): v for k, v in _ATTRIBUTE.findall(body)}
        group = attributes.get("GROUP", "")
        where = f" GROUP({group})" if group else ""
        if "TRANSACTION" in attributes:
            tran = _name(attributes["TRANSACTION"])
            program = _name(attributes.get("PROGRAM", ""))
            detail = (f"PROGRAM({program})" if program else "") + where
            out.entities.append(
                Entity("transaction", tran, make(Kind.TRAN, tran), path, first, last, detail=detail)
            )
            if program:
                out.add_edge(
                    Edge(
                        "executes",
                        make(Kind.TRAN, tran),
                        program_key(program),
                        path,
                        first,
                        "CSD DEFINE",
                    )
                )
        elif "FILE" in attributes:
            name = _name(attributes["FILE"])
            dsn = attributes.get("DSNAME", "").strip().upper()
            detail = (f"DSNAME({dsn})" if dsn else "") + where
            out.entities.append(
                Entity("cics_file", name, make(Kind.FILE, name), path, first, last, detail=detail)
            )
            if dsn:
                out.add_edge(
                    Edge("assigns", make(Kind.FILE, name), make(Kind.DSN, dsn), path, first)
                )
        elif "TDQUEUE" in attributes:
            name = _name(attributes["TDQUEUE"])
            out.entities.append(
                Entity(
                    "queue", name, make(Kind.QUEUE, name), path, first, last, detail=where.strip()
                )
            )


def ddl_tables(lines: Numbered, path: str, out: Extraction) -> None:
    """``CREATE TABLE`` statements: the table and its column names."""
    for index, (number, text) in enumerate(lines):
        match = _CREATE_TABLE.search(text)
        if match is None:
            continue
        name = _name(match.group(1))
        if not re.match(r"^[A-Z][A-Z0-9_$#@]*$", name):
            continue
        columns: list[str] = []
        last = number
        for later_number, later in lines[index + 1 : index + 200]:
            last = later_number
            if ";" in later or _CREATE_TABLE.search(later):
                break
            column = _COLUMN.match(later)
            if column and column.group(1).upper() not in _COLUMN_WORDS:
                columns.append(column.group(1).upper())
        detail = f"columns {', '.join(columns)}" if columns else None
        table = Entity("table", name, make(Kind.TABLE, name), path, number, last, detail=detail)
        out.entities.append(table)


def member_references(lines: Numbered, src_key: str, path: str, out: Extraction) -> None:
    """``KEY=NAME`` and ``MEMBER(NAME)`` in ``lines`` → ``names`` edges to ``MEMBER:NAME``."""
    for number, text in lines:
        for key, value in _KEY_VALUE.findall(text):
            if key.upper() not in _NOT_MEMBER_KEYS:
                member = value.upper()
                out.add_edge(
                    Edge(
                        "names", src_key, make(Kind.MEMBER, member), path, number, f"{key}={member}"
                    )
                )
        for value in _MEMBER.findall(text):
            member = value.upper()
            out.add_edge(
                Edge("names", src_key, make(Kind.MEMBER, member), path, number, f"MEMBER({member})")
            )
