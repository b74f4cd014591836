"""Values a symptom quotes — a message on the screen, a return code — traced to the code
that produces them.

A quoted message is looked up in the code; when the line that shows it sits under
``WHEN v`` of ``EVALUATE F`` (or ``IF F = v``), the condition is ``F = v``, and the lines
that move ``v`` into a field named ``F`` — in any program, since a commarea field has the
same name everywhere — are where the condition is set. A bare number of the question
(``return code 90``) is looked up the same way among the values moved into fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select

from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.answer.retrieval import ChunkHit
from vigia.worlds.graph.keys import Kind, key_prefix
from vigia.worlds.models import WorldEdge
from vigia.worlds.source import readable

_QUOTED = re.compile(r"[\"'“‘«]([^\"'“”‘’«»]{3,80})[\"'”’»]")
_NUMBER = re.compile(r"(?<![\w.-])(\d{1,4})(?![\w-])")
_WHEN = re.compile(r"^\s*WHEN\s+'?([^'\s]+)'?", re.I)
_EVALUATE = re.compile(r"^\s*EVALUATE\s+([A-Z0-9][A-Z0-9-]*)", re.I)
_IF = re.compile(r"\bIF\s+([A-Z0-9][A-Z0-9-]*)\s*(?:=|EQUAL(?:\s+TO)?)\s*'?([^'\s)]+)'?", re.I)
LOOK_BACK = 12


@dataclass(frozen=True)
class Condition:
    """``field = value`` guarding a line that shows a quoted message."""

    field: str
    value: str
    path: str
    line: int


def normal(value: str) -> str:
    """``'070'`` and ``70`` compare equal; other literals keep their case-folded text."""
    value = value.strip().strip("'\"")
    return str(int(value)) if value.isdigit() else value.upper()


def quoted(message: str) -> list[str]:
    return [q.strip() for q in _QUOTED.findall(message) if re.search(r"[A-Za-z]", q)]


def numbers(message: str) -> list[str]:
    without_quotes = _QUOTED.sub(" ", message)
    return list(dict.fromkeys(_NUMBER.findall(without_quotes)))


def _squash(text: str) -> str:
    return " ".join(text.upper().split())


def shown_at(lens: LensInput, text: str) -> list[tuple[ChunkHit, int]]:
    """Passages (and line numbers) whose code holds the literal ``text``."""
    wanted = _squash(text)
    found = []
    for hit in lens.search(text, lens.scope_paths, limit=12):
        for offset, raw in enumerate(hit.chunk.text.splitlines()):
            if wanted in _squash(readable(raw, hit.chunk.fixed)):
                found.append((hit, hit.chunk.line_start + offset))
    return found


def guard(hit: ChunkHit, line: int) -> Condition | None:
    """The ``WHEN``/``EVALUATE`` or ``IF`` condition right above ``line`` in the passage."""
    lines = hit.chunk.text.splitlines()
    index = line - hit.chunk.line_start
    value: str | None = None
    for back in range(index, max(-1, index - LOOK_BACK), -1):
        text = readable(lines[back], hit.chunk.fixed)
        found_if = _IF.search(text)
        if found_if and value is None:
            number = hit.chunk.line_start + back
            return Condition(found_if.group(1).upper(), found_if.group(2), hit.path, number)
        when = _WHEN.match(text)
        if when and value is None and when.group(1).upper() != "OTHER":
            value = when.group(1)
        evaluate = _EVALUATE.match(text)
        if evaluate and value is not None:
            number = hit.chunk.line_start + back
            return Condition(evaluate.group(1).upper(), value, hit.path, number)
    return None


def writers_of(lens: LensInput, values: list[str], field: str | None = None) -> list[WorldEdge]:
    """Edges that move one of ``values`` into a field (named ``field`` if given), in scope."""
    wanted = {normal(v) for v in values}
    if not wanted:
        return []
    query = select(WorldEdge).where(
        WorldEdge.world_id == lens.world_id,
        WorldEdge.kind == "writes",
        WorldEdge.detail.like("= %"),
    )
    if field is not None:
        query = query.where(
            WorldEdge.dst_key.startswith(key_prefix(Kind.DATA)),
            WorldEdge.dst_key.endswith(f":{field}", autoescape=True),
        )
    found = [
        e
        for e in lens.session.scalars(query.order_by(WorldEdge.path, WorldEdge.line))
        if normal((e.detail or "")[2:]) in wanted and lens.in_scope(e.path)
    ]
    return found
