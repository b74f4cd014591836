"""Tolerant COBOL preprocessor: fixed or free format, continuation lines, COPY … REPLACING.

The output is a list of logical code lines, each remembering the file and line it came
from and the copybook it was copied from, so that every extracted fact can be cited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_COPY_DEPTH = 8
_WORD = r"A-Za-z0-9-"


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
class Replacement:
    """One ``REPLACING`` pair; ``mode``: ``word``, ``partial``, ``leading`` or ``trailing``."""

    old: str
    new: str
    mode: str


@dataclass(frozen=True)
class CopyUse:
    """A ``COPY`` statement of a file: which copybook, where, and how it was replaced."""

    name: str
    path: str
    line: int
    replacing: tuple[Replacement, ...] = ()
    resolved: str | None = None

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


_COPY_START = re.compile(r"(?<![A-Za-z0-9-])COPY\s+", re.IGNORECASE)
_PSEUDO = re.compile(r"==(.*?)==", re.DOTALL)
_OPERAND = re.compile(r"==(.*?)==|'[^']*'|\"[^\"]*\"|[^\s.]+(?:\.[^\s.]+)*", re.DOTALL)


def _statement_end(text: str) -> int | None:
    """Index just past the period that ends a COPY statement (outside ==…== and quotes)."""
    i, quote = 0, None
    while i < len(text):
        if quote:
            if text[i] == quote:
                quote = None
        elif text.startswith("==", i):
            close = text.find("==", i + 2)
            if close < 0:
                return None
            i = close + 2
            continue
        elif text[i] in "'\"":
            quote = text[i]
        elif text[i] == "." and (i + 1 == len(text) or text[i + 1].isspace()):
            return i + 1
        i += 1
    return None


def parse_replacing(clause: str) -> tuple[Replacement, ...]:
    """Parses the operands after ``REPLACING`` into replacement pairs."""
    pairs: list[Replacement] = []
    tokens = [m.group(0) for m in _OPERAND.finditer(clause)]
    i = 0
    while i < len(tokens):
        mode = "word"
        if tokens[i].upper() in ("LEADING", "TRAILING"):
            mode = tokens[i].lower()
            i += 1
        if i + 2 >= len(tokens) or tokens[i + 1].upper() != "BY":
            break
        old, new = _operand_text(tokens[i]), _operand_text(tokens[i + 2])
        if mode == "word" and tokens[i].startswith("==") and _is_partial(old):
            mode = "partial"
        pairs.append(Replacement(old, new, mode))
        i += 3
    return tuple(pairs)


def _operand_text(token: str) -> str:
    if token.startswith("==") and token.endswith("==") and len(token) >= 4:
        return " ".join(token[2:-2].split())
    return token


def _is_partial(pseudo: str) -> bool:
    """A one-token pseudo-text that is only part of a word (``:TAG:``, ``(PFX)``…)."""
    if not pseudo or " " in pseudo:
        return False
    return not (pseudo[0].isalnum() and pseudo[-1].isalnum())


def _pattern(rep: Replacement) -> str:
    body = r"\s+".join(re.escape(tok) for tok in rep.old.split()) if rep.old else "(?!)"
    if rep.mode == "partial":
        return body
    if rep.mode == "leading":
        return rf"(?<![{_WORD}]){body}(?=[{_WORD}])"
    if rep.mode == "trailing":
        return rf"(?<=[{_WORD}]){body}(?![{_WORD}])"
    return rf"(?<![{_WORD}]){body}(?![{_WORD}])"


def apply_replacing(text: str, replacing: tuple[Replacement, ...]) -> str:
    """Applies every pair in one left-to-right pass (replaced text is never re-scanned)."""
    if not replacing:
        return text
    combined = re.compile(
        "|".join(f"(?P<r{i}>{_pattern(rep)})" for i, rep in enumerate(replacing)), re.IGNORECASE
    )

    def swap(match: re.Match[str]) -> str:
        index = int((match.lastgroup or "r0")[1:])
        return replacing[index].new

    return combined.sub(swap, text)


def _parse_copy(statement: str) -> tuple[str, tuple[Replacement, ...]]:
    body = _COPY_START.sub("", statement, count=1).rstrip().rstrip(".")
    head = body.split(None, 1)
    name = head[0].strip("'\"").upper() if head else ""
    name = name.rsplit("/", 1)[-1].split(".", 1)[0]
    replacing: tuple[Replacement, ...] = ()
    match = re.search(r"(?<![A-Za-z0-9-])REPLACING\s+", body, re.IGNORECASE)
    if match:
        replacing = parse_replacing(body[match.end() :])
    return name, replacing


def preprocess(
    text: str,
    path: str,
    resolve: CopybookResolver,
    origin: str | None = None,
    depth: int = 0,
    chain: tuple[str, ...] = (),
) -> Preprocessed:
    """Logical lines of ``text`` with every resolvable ``COPY`` expanded in place."""
    result = Preprocessed()
    lines = source_lines(text, path, origin)
    i = 0
    while i < len(lines):
        line = lines[i]
        match = None if line.comment else _COPY_START.search(line.text)
        if match is None or _open_quote(line.text[: match.start()]):
            result.lines.append(line)
            i += 1
            continue
        # Gather the statement, possibly over several lines, up to its period.
        prefix = line.text[: match.start()].strip()
        statement = line.text[match.start() :]
        j = i
        end = _statement_end(statement)
        while end is None and j + 1 < len(lines):
            j += 1
            if not lines[j].comment:
                statement += " " + lines[j].text
                end = _statement_end(statement)
        rest = statement[end:].strip() if end is not None else ""
        statement = statement[:end] if end is not None else statement
        if prefix:
            result.lines.append(Line(prefix, line.path, line.line, line.origin, line.area_a))
        name, replacing = _parse_copy(statement)
        found = resolve(name) if name and depth < MAX_COPY_DEPTH and name not in chain else None
        use = CopyUse(name, line.path, line.line, replacing, found[0] if found else None)
        result.copies.append(use)
        if found is None:
            result.missing.append(name)
        else:
            inner = preprocess(found[1], found[0], resolve, name, depth + 1, (*chain, name))
            for copied in inner.lines:
                text_after = (
                    copied.text if copied.comment else apply_replacing(copied.text, replacing)
                )
                result.lines.append(
                    Line(
                        text_after,
                        copied.path,
                        copied.line,
                        copied.origin,
                        copied.area_a,
                        copied.comment,
                    )
                )
            result.copies.extend(inner.copies)
            result.missing.extend(inner.missing)
        if rest:
            last = lines[j]
            result.lines.append(Line(rest, last.path, last.line, last.origin, False))
        i = j + 1
    return result
