"""Tolerant COBOL preprocessor: fixed or free format, continuation lines, ``COPY …
REPLACING``, ``EXEC SQL INCLUDE`` (a copybook for the DB2 precompiler) and ``REPLACE``.

The output is a list of logical code lines, each remembering the file and line it came
from and the copybook it was copied from, so that every extracted fact can be cited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from vigia.worlds.ingest.cobol.replacing import (
    COPY_START,
    Replacement,
    apply_replacing,
    parse_copy,
    parse_replace,
    statement_end,
)

MAX_COPY_DEPTH = 8
MAX_EXEC_LINES = 12
_EXEC_SQL = re.compile(r"(?<![A-Za-z0-9-])EXEC\s+SQL\b", re.IGNORECASE)
_INCLUDE = re.compile(
    r"^EXEC\s+SQL\s+INCLUDE\s+['\"]?([A-Za-z0-9#@$-]+)['\"]?\s+END-EXEC\b\s*\.?", re.IGNORECASE
)
_REPLACE = re.compile(r"^REPLACE\b", re.IGNORECASE)


@dataclass(frozen=True)
class Line:
    """One logical line of COBOL code (comments keep ``comment=True``)."""

    text: str
    path: str
    line: int
    origin: str | None = None
    area_a: bool = False
    comment: bool = False


@dataclass(frozen=True)
class CopyUse:
    """A ``COPY`` statement of a file: which copybook, where, and how it was replaced."""

    name: str
    path: str
    line: int
    replacing: tuple[Replacement, ...] = ()
    resolved: str | None = None
    statement: str = "COPY"

    def describe_replacing(self) -> str:
        """``REPLACING ==A== BY ==B== …`` as written (empty when none)."""
        if not self.replacing:
            return ""
        parts = [
            (f"{r.mode.upper()} " if r.mode in ("leading", "trailing") else "")
            + f"=={r.old}== BY =={r.new}=="
            for r in self.replacing
        ]
        return "REPLACING " + " ".join(parts)


@dataclass
class Preprocessed:
    """Logical lines of a program with copybooks expanded."""

    lines: list[Line] = field(default_factory=list)
    copies: list[CopyUse] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


CopybookResolver = Callable[[str], tuple[str, str] | None]
"""Maps a copybook name to ``(path, text)``, or ``None`` when the world lacks it."""


def is_free_format(text: str) -> bool:
    """Whether the source is free format (a directive says so, or no sequence area is used)."""
    head = text[:4000].upper()
    if re.search(r">>\s*SOURCE\s+(FORMAT\s+(IS\s+)?)?FREE", head):
        return True
    lines = [ln for ln in text.splitlines()[:400] if ln.strip()]
    if not lines:
        return False
    fixed = 0
    for ln in lines:
        ln = ln.expandtabs(8)
        seq, indicator = ln[:6], ln[6:7]
        if (not seq.strip() or seq.strip().isdigit() or len(ln) >= 72) and indicator in (
            " ",
            "*",
            "/",
            "-",
            "D",
            "d",
            "",
        ):
            fixed += 1
    return fixed / len(lines) < 0.8


def _strip_floating_comment(code: str) -> str:
    quote: str | None = None
    for i, ch in enumerate(code):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif code.startswith("*>", i):
            return code[:i]
    return code


def _open_quote(code: str) -> bool:
    quote: str | None = None
    for ch in code:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
    return quote is not None


def source_lines(text: str, path: str, origin: str | None = None) -> list[Line]:
    """Splits one file into logical lines: sequence area dropped, continuations joined."""
    free = is_free_format(text)
    out: list[Line] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        raw = raw.expandtabs(8).rstrip("\r\n")
        if free:
            stripped = raw.strip()
            if stripped.startswith("*>") or stripped.startswith(">>"):
                out.append(Line(stripped, path, number, origin, comment=True))
                continue
            code = _strip_floating_comment(raw).rstrip()
            if code.strip():
                out.append(Line(code.strip(), path, number, origin, area_a=not raw[:1].isspace()))
            continue
        indicator = raw[6:7]
        code = raw[7:72]
        if indicator in ("*", "/", "D", "d"):
            out.append(Line(code.strip(), path, number, origin, comment=True))
            continue
        if raw[:6].strip().startswith(">>") or raw.lstrip().startswith(">>"):
            continue
        code = _strip_floating_comment(code).rstrip()
        if not code.strip():
            continue
        if indicator == "-" and out:
            previous = next((i for i in range(len(out) - 1, -1, -1) if not out[i].comment), None)
            if previous is not None:
                prior = out[previous]
                piece = code.lstrip()
                if _open_quote(prior.text) and piece[:1] in "'\"":
                    joined = prior.text + piece[1:]
                else:
                    joined = prior.text + " " + piece
                out[previous] = Line(joined, prior.path, prior.line, origin, prior.area_a)
                continue
        area_a = len(code) - len(code.lstrip()) < 4
        out.append(Line(code.strip(), path, number, origin, area_a=area_a))
    return out


def _gather(
    lines: list[Line], i: int, start: int, end_of: Callable[[str], int | None]
) -> tuple[str, int, int | None]:
    """The statement text from ``lines[i]`` at ``start`` on, over the next code lines until
    ``end_of`` finds its end: (text, index of its last line, end offset or None)."""
    statement = lines[i].text[start:]
    j, end = i, end_of(statement)
    while end is None and j + 1 < len(lines) and j - i < 200:
        j += 1
        if not lines[j].comment:
            statement += " " + lines[j].text
            end = end_of(statement)
    return statement, j, end


def _end_exec(text: str) -> int | None:
    match = re.search(r"\bEND-EXEC\b\s*\.?", text, re.IGNORECASE)
    return match.end() if match else None


def _include_at(lines: list[Line], i: int) -> tuple[str, int, str] | None:
    """``EXEC SQL INCLUDE name END-EXEC`` starting on line ``i``: (name, last line, rest)."""
    line = lines[i]
    match = None if line.comment else _EXEC_SQL.search(line.text)
    if match is None or _open_quote(line.text[: match.start()]):
        return None
    statement, j, end = _gather(lines, i, match.start(), _end_exec)
    if end is None or j - i > MAX_EXEC_LINES:
        return None
    include = _INCLUDE.match(" ".join(statement[:end].split()))
    if include is None:
        return None
    return include.group(1).upper(), j, statement[end:].strip()


def _expand(
    use: CopyUse,
    resolve: CopybookResolver,
    depth: int,
    chain: tuple[str, ...],
    result: Preprocessed,
) -> None:
    """Appends the copybook's lines (replaced) to ``result``, or records it as missing."""
    name = use.name
    found = resolve(name) if name and depth < MAX_COPY_DEPTH and name not in chain else None
    result.copies.append(
        CopyUse(name, use.path, use.line, use.replacing, found[0] if found else None, use.statement)
    )
    if found is None:
        result.missing.append(name)
        return
    inner = _expand_copies(found[1], found[0], resolve, name, depth + 1, (*chain, name))
    for copied in inner.lines:
        text = copied.text if copied.comment else apply_replacing(copied.text, use.replacing)
        result.lines.append(
            Line(text, copied.path, copied.line, copied.origin, copied.area_a, copied.comment)
        )
    result.copies.extend(inner.copies)
    result.missing.extend(inner.missing)


def _expand_copies(
    text: str,
    path: str,
    resolve: CopybookResolver,
    origin: str | None,
    depth: int,
    chain: tuple[str, ...],
) -> Preprocessed:
    """Logical lines of ``text`` with every ``COPY`` and ``EXEC SQL INCLUDE`` expanded."""
    result = Preprocessed()
    lines = source_lines(text, path, origin)
    i = 0
    while i < len(lines):
        line = lines[i]
        include = _include_at(lines, i)
        if include is not None:
            name, j, rest = include
            _expand(
                CopyUse(name, line.path, line.line, statement="INCLUDE"),
                resolve,
                depth,
                chain,
                result,
            )
            if rest:
                result.lines.append(Line(rest, lines[j].path, lines[j].line, lines[j].origin))
            i = j + 1
            continue
        match = None if line.comment else COPY_START.search(line.text)
        if match is None or _open_quote(line.text[: match.start()]):
            result.lines.append(line)
            i += 1
            continue
        statement, j, end = _gather(lines, i, match.start(), statement_end)
        rest = statement[end:].strip() if end is not None else ""
        statement = statement[:end] if end is not None else statement
        prefix = line.text[: match.start()].strip()
        if prefix:
            result.lines.append(Line(prefix, line.path, line.line, line.origin, line.area_a))
        name, replacing = parse_copy(statement)
        _expand(CopyUse(name, line.path, line.line, replacing), resolve, depth, chain, result)
        if rest:
            last = lines[j]
            result.lines.append(Line(rest, last.path, last.line, last.origin, False))
        i = j + 1
    return result


def _apply_replace_statements(lines: list[Line]) -> list[Line]:
    """Runs ``REPLACE … .`` / ``REPLACE OFF.`` over the source after COPY expansion: each
    statement replaces the text of the lines that follow it until the next one."""
    out: list[Line] = []
    active: tuple[Replacement, ...] = ()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.comment:
            out.append(line)
            i += 1
            continue
        if _REPLACE.match(line.text):
            statement, j, end = _gather(lines, i, 0, statement_end)
            active = parse_replace(statement[:end] if end is not None else statement)
            rest = statement[end:].strip() if end is not None else ""
            if rest:
                last = lines[j]
                out.append(Line(rest, last.path, last.line, last.origin, False))
            i = j + 1
            continue
        if active:
            line = Line(
                apply_replacing(line.text, active),
                line.path,
                line.line,
                line.origin,
                line.area_a,
            )
        out.append(line)
        i += 1
    return out


def preprocess(text: str, path: str, resolve: CopybookResolver) -> Preprocessed:
    """Logical lines of a program: ``COPY`` (with ``REPLACING``) and ``EXEC SQL INCLUDE``
    expanded in place, then ``REPLACE`` statements applied to what follows them."""
    result = _expand_copies(text, path, resolve, None, 0, ())
    result.lines = _apply_replace_statements(result.lines)
    return result
