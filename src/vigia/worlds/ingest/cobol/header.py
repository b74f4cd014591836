"""A COBOL program's purpose, from where its authors wrote it: the comment block above
IDENTIFICATION DIVISION, the comments and REMARKS of the identification division, its
AUTHOR; only when none says anything, the first comment block after PROGRAM-ID (often a
working-storage heading such as "Common definitions")."""

from __future__ import annotations

import re

from vigia.worlds.ingest.cobol.preprocess import Line
from vigia.worlds.ingest.comments import MAX_PURPOSE, comment_text, purpose

_ID_DIVISION = re.compile(r"^(IDENTIFICATION|ID)\s+DIVISION\b", re.I)
_OTHER_DIVISION = re.compile(r"^(ENVIRONMENT|DATA|PROCEDURE)\s+DIVISION\b", re.I)
_PARAGRAPH = re.compile(
    r"^(AUTHOR|INSTALLATION|DATE-WRITTEN|DATE-COMPILED|SECURITY|REMARKS)\s*\.?\s*(.*)$", re.I
)


def _block_above(lines: list[Line], start: int) -> list[str]:
    """The comment lines right above ``lines[start]`` (blank-free, in order)."""
    block: list[str] = []
    i = start - 1
    while i >= 0 and lines[i].comment and lines[i].path == lines[start].path:
        block.append(lines[i].text)
        i -= 1
    return list(reversed(block))


def _identification(lines: list[Line], program_id: int) -> tuple[list[str], dict[str, str]]:
    """Comment lines and paragraphs (AUTHOR, REMARKS…) of the identification division."""
    comments: list[str] = []
    paragraphs: dict[str, list[str]] = {}
    current: str | None = None
    for line in lines[program_id + 1 :]:
        if line.path != lines[program_id].path:
            continue
        if line.comment:
            comments.append(line.text)
            continue
        if _OTHER_DIVISION.match(line.text) or _ID_DIVISION.match(line.text):
            break
        if line.text.upper().startswith(("PROGRAM-ID", "END PROGRAM")):
            break
        match = _PARAGRAPH.match(line.text)
        if match:
            current = match.group(1).upper()
            paragraphs.setdefault(current, []).append(match.group(2))
        elif current is not None:
            paragraphs[current].append(line.text)
    return comments, {
        k: " ".join(comment_text(t) for t in v).strip() for k, v in paragraphs.items()
    }


def _first_block_after(lines: list[Line], program_id: int) -> str | None:
    """The first comment block after PROGRAM-ID (the fallback)."""
    block: list[str] = []
    for line in lines[program_id + 1 : program_id + 40]:
        if line.comment:
            if comment_text(line.text):
                block.append(line.text)
        elif block:
            break
    return purpose(block)


def program_purpose(lines: list[Line], program_id_line: Line) -> str | None:
    """What the program says it does (see the module docstring), or None."""
    index = next((i for i, ln in enumerate(lines) if ln is program_id_line), None)
    if index is None:
        return None
    top = index
    if top > 0 and not lines[top - 1].comment and _ID_DIVISION.match(lines[top - 1].text):
        top -= 1
    comments, paragraphs = _identification(lines, index)
    said = [
        text
        for text in (
            purpose(_block_above(lines, top)),
            purpose(comments),
            paragraphs.get("REMARKS") or None,
        )
        if text
    ]
    author = paragraphs.get("AUTHOR", "").rstrip(".")
    if not said:
        fallback = _first_block_after(lines, index)
        said = [fallback] if fallback else []
    if author and said:
        said.append(f"Author: {author}")
    ended = [s if s[-1] in ".:;!?" else s + "." for s in said[:-1]]
    return " ".join([*ended, *said[-1:]])[:MAX_PURPOSE] or None


def copybook_purpose(text: str) -> str | None:
    """What a copybook says it holds: its leading comment block (fixed format: ``*`` or ``/``
    in column 7; free format: ``*>``)."""
    block: list[str] = []
    for raw in text.splitlines():
        indicator = raw[6:7]
        if indicator in ("*", "/"):
            block.append(raw[7:72])
        elif raw.lstrip().startswith("*>"):
            block.append(raw.lstrip()[2:])
        elif raw.strip():
            break
    return purpose(block)
