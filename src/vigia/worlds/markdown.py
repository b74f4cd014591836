"""Markdown as its writers mean it: ATX headings outside fenced code (a ``# comment`` in a
code sample is no heading), the trail of headings a section sits under, pieces of a
section cut at blank lines, and the sentences of its prose (code samples are not
sentences)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_LIST_OR_TABLE = ("#", "|", "-", "*", "+", ">")
# A documentation passage: a section, or a piece of a long one cut at a blank line once it
# has this many lines (a passage embeds its first words only, so a long section's later
# sentences would otherwise never be found by meaning).
PIECE_LINES = 14


@dataclass(frozen=True)
class Section:
    """Lines ``start``–``end`` (1-based) under one heading, with the headings above it."""

    start: int
    end: int
    trail: tuple[str, ...]

    @property
    def title(self) -> str:
        return " › ".join(self.trail)


def fenced(lines: list[str]) -> list[bool]:
    """Per line, whether it belongs to a fenced code block (its fences included)."""
    out: list[bool] = []
    fence = ""
    for line in lines:
        match = _FENCE.match(line)
        if fence:
            out.append(True)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = ""
        elif match:
            fence = match.group(1)
            out.append(True)
        else:
            out.append(False)
    return out


def is_fence(line: str) -> bool:
    """Whether a line opens or closes a fenced code block (```` ```py ````, ``~~~``)."""
    return bool(_FENCE.match(line))


def heading(line: str) -> tuple[int, str] | None:
    """``(level, text)`` of an ATX heading line (``## Usage``), else None."""
    match = _HEADING.match(line)
    if match is None:
        return None
    return len(match.group(1)), (match.group(2) or "").strip()


def sections(lines: list[str]) -> list[Section]:
    """The sections of a document in order; text before the first heading is one too."""
    code = fenced(lines)
    out: list[Section] = []
    trail: list[tuple[int, str]] = []
    start = 1
    for number, line in enumerate(lines, start=1):
        found = None if code[number - 1] else heading(line)
        if found is None:
            continue
        if number > start:
            out.append(Section(start, number - 1, tuple(t for _, t in trail)))
        level, text = found
        trail = [*(t for t in trail if t[0] < level), (level, text)]
        start = number
    if start <= len(lines):
        out.append(Section(start, len(lines), tuple(t for _, t in trail)))
    return out


def pieces(lines: list[str], section: Section, limit: int) -> list[tuple[int, int]]:
    """A section cut at blank lines outside code once a piece has ``PIECE_LINES`` lines,
    and never longer than ``limit`` lines."""
    code = fenced(lines)
    out: list[tuple[int, int]] = []
    start = section.start
    for number in range(section.start, section.end + 1):
        blank = not lines[number - 1].strip() and not code[number - 1]
        if (blank and number - start >= PIECE_LINES) or number - start >= limit:
            out.append((start, number - 1))
            start = number
    out.append((start, section.end))
    return [(s, e) for s, e in out if e >= s]


def sentences(text: str, first_line: int) -> list[tuple[int, str]]:
    """The sentences of a documentation passage with the line each starts on; headings and
    table rows are sentences of their own, so is a list item (with the lines it goes on
    over: an item says one thing, such as what a parameter defaults to); code samples are
    left out."""
    lines = text.splitlines()
    code = fenced(lines)
    found: list[tuple[int, str]] = []
    current: list[str] = []
    start = first_line
    item = False  # inside a list item: one unit however many sentences it has
    for offset, raw in enumerate(lines):
        line = raw.strip()
        if not line or code[offset] or line.startswith(_LIST_OR_TABLE):
            if current:
                found.append((start, " ".join(current)))
            current, item = [], False
            if not line or code[offset]:
                continue
            if line.startswith(("#", "|")):
                found.append((first_line + offset, line))
                continue
            start, current, item = first_line + offset, [line], True
            continue
        if item:
            current.append(line)
            continue
        for piece in _SENTENCE_END.split(line):
            if not current:
                start = first_line + offset
            current.append(piece)
            if re.search(r"[.!?]$", piece):
                found.append((start, " ".join(current)))
                current = []
    if current:
        found.append((start, " ".join(current)))
    return found
