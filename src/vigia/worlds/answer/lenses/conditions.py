"""The condition that leads to a line: the enclosing ``IF`` (its ``ELSE`` branch too) or
``EVALUATE … WHEN`` of a statement, read upwards through the paragraph's code.

A return code or message is set by a ``MOVE``; why it is set is the branch around it — an
``IF SQLCODE NOT EQUAL 0``, ``WHEN -530`` of ``EVALUATE SQLCODE``, a CICS ``RESP`` test, an
``EIBCALEN`` check. Nested blocks closed above the line (``END-IF``, ``END-EVALUATE``) are
skipped; a sentence ended by a period above the line closes every condition before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.orm import Session

from vigia.worlds.graph.queries import chunk_at
from vigia.worlds.source import is_comment, readable

LOOK_BACK = 60
_IF = re.compile(r"^IF\s+(.+?)\s*(?:THEN)?\s*$", re.I)
_ELSE = re.compile(r"^ELSE\b", re.I)
_WHEN = re.compile(r"^WHEN\s+(.+?)\s*$", re.I)
_EVALUATE = re.compile(r"^EVALUATE\s+(.+?)\s*$", re.I)
_END_IF = re.compile(r"\bEND-IF\b", re.I)
_END_EVALUATE = re.compile(r"\bEND-EVALUATE\b", re.I)
_HEADER = re.compile(r"^[A-Z0-9][A-Z0-9-]*(?:\s+SECTION)?\s*\.\s*$", re.I)


@dataclass(frozen=True)
class Branch:
    """``text`` (as written: ``IF SQLCODE NOT EQUAL 0``, ``EVALUATE SQLCODE WHEN -530``,
    ``ELSE (IF …)``) and the line that tests it."""

    text: str
    path: str
    line: int


def _code_lines(session: Session, world_id: str, path: str, line: int) -> list[tuple[int, str]]:
    """The readable code lines of the passage holding ``path:line``, up to that line."""
    chunk = chunk_at(session, world_id, path, line)
    if chunk is None:
        return []
    out = []
    for offset, raw in enumerate(chunk.text.splitlines()):
        number = chunk.line_start + offset
        if number > line:
            break
        if number >= line - LOOK_BACK and not is_comment(raw, chunk.fixed):
            text = readable(raw, chunk.fixed)
            if text:
                out.append((number, text))
    return out


def _strip_period(text: str) -> str:
    return text[:-1].rstrip() if text.endswith(".") else text


def branch_of(session: Session, world_id: str, path: str, line: int) -> Branch | None:
    """The nearest condition enclosing ``path:line``, or None (unconditional code)."""
    lines = _code_lines(session, world_id, path, line)
    if not lines or lines[-1][0] != line:
        return None
    depth_if = depth_evaluate = 0
    in_else = False
    when: tuple[int, str] | None = None
    for number, text in reversed(lines[:-1]):
        if _HEADER.match(text):
            return None
        if text.endswith(".") and depth_if == depth_evaluate == 0 and when is None:
            return None  # a sentence ended above the line: nothing before it encloses it
        if _END_IF.search(text):
            depth_if += 1
            continue
        if _END_EVALUATE.search(text):
            depth_evaluate += 1
            continue
        found_if = _IF.match(text)
        if found_if:
            if depth_if:
                depth_if -= 1
                continue
            if when is not None or depth_evaluate:
                continue
            condition = f"IF {_strip_period(found_if.group(1))}"
            return Branch(f"ELSE ({condition})" if in_else else condition, path, number)
        evaluate = _EVALUATE.match(text)
        if evaluate:
            if depth_evaluate:
                depth_evaluate -= 1
                continue
            if when is not None and depth_if == 0:
                subject = _strip_period(evaluate.group(1))
                return Branch(f"EVALUATE {subject} {when[1]}", path, when[0])
            continue
        if depth_if or depth_evaluate:
            continue
        if _ELSE.match(text) and when is None:
            in_else = True
            continue
        found_when = _WHEN.match(text)
        if found_when and when is None and not in_else:
            when = (number, f"WHEN {_strip_period(found_when.group(1))}")
    return None
