"""Splits a world file into passages for retrieval, along what the graph knows.

COBOL: the comment block and header of the program, the data division in pieces that
start at ``01`` levels, then one passage per paragraph or section (its comment block above
included). JCL: one per step. BMS: one per map. Markdown: one per heading (outside code
samples), titled by the headings above it, long sections cut at blank lines. Anything
longer than ``MAX_LINES`` is cut into pieces that keep the entity. Each passage carries:

- ``lexical``: what the code analyzer indexes (code area only, with its title);
- ``dense``: a short text to embed for meaning — the entity's name split into words, its
  comments, the literals it shows and the words of the names it uses — or ``None`` for
  passages only found by their words (data that is not prose, e.g. test data files).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vigia.language import word_set
from vigia.worlds.graph.extraction import Entity
from vigia.worlds.markdown import fenced, is_fence, pieces, sections
from vigia.worlds.source import code_area, is_comment, readable

MAX_LINES = 40
DATA_LINES = 24
# Words embedded per passage, by kind: embedding time grows with them, and what a data
# division or a JCL step is for says itself in fewer words than a paragraph of code.
DENSE_WORDS = {"code": 48, "header": 48, "doc": 48, "text": 48, "map": 40}
SHORT_DENSE_WORDS = 24
MIN_DENSE_WORDS = 4
_VOWEL = re.compile(r"[aeiouy]")
_BOILERPLATE = re.compile(r"copyright|all rights reserved|licensed materials|\(c\)", re.I)
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*")
_LITERAL = re.compile(r"'([^']{3,})'|\"([^\"]{3,})\"")
_SQL = re.compile(r"\bEXEC\s+SQL\b", re.I)
_LEVEL_01 = re.compile(r"^\s*(01|77)\s", re.I)
_PROCEDURE = re.compile(r"^\s*PROCEDURE\s+DIVISION\b", re.I)
# Words of COBOL, CICS and SQL syntax that say nothing about what the code is for.
NOISE = word_set(
    """
    move to from into if else end evaluate when other perform until varying thru through
    exec end-exec cics sql pic picture value values spaces space zero zeros zeroes x s9 9
    comp comp-3 binary display compute add subtract multiply divide giving by set true false
    not and or is are equal greater less than then go exit continue resp resp2 length
    commarea nohandle dfhresp normal of in at with section division procedure data
    working-storage linkage copy include redefines occurs times filler the a an for on
    identification environment configuration source computer object input output control
    select assign working storage local program-id author installation written compiled
    security remarks handle condition aid link xctl program transid start return send receive
    map mapset erase freekb maponly dataonly ridfld keylength dataset file queue writeq readq
    deleteq ts td abend abcode nodump assign syncpoint rollback nosuspend update
    """
)


@dataclass(frozen=True)
class Passage:
    """One retrieval unit of a file."""

    line_start: int
    line_end: int
    text: str
    kind: str
    entity_key: str | None
    title: str
    lexical: str
    dense: str | None


@lru_cache(maxsize=65536)
def name_words(name: str) -> str:
    """``INSERT-CUSTOMER-PASSWORD`` → ``insert customer password``."""
    return " ".join(p for p in re.split(r"[-_]+", name.lower()) if p)


def _is_word(part: str) -> bool:
    """A part of a name that reads as a word (``customer``), not a code (``enp3idai``)."""
    return len(part) >= 3 and part.isalpha() and bool(_VOWEL.search(part)) and part not in NOISE


def _is_message(literal: str) -> bool:
    """A literal that reads as text (``Customer does not exist``), not a code (``01IHOU``)."""
    words = literal.split()
    return len(words) > 1 or (bool(words) and words[0].isalpha() and len(words[0]) >= 4)


def dense_text(
    title: str, raw: list[str], fixed: bool, code: bool = True, limit: int = SHORT_DENSE_WORDS
) -> str | None:
    """Name words, then comments, messages and the words of identifiers, deduplicated; or
    None when there is too little besides the name to say what the passage is about (an
    ``EXIT`` paragraph would otherwise look close to every question)."""
    comments: list[str] = []
    literals: list[str] = []
    code_words: list[str] = []
    for line in raw:
        text = readable(line, fixed)
        if not text:
            continue
        if is_comment(line, fixed):
            if not _BOILERPLATE.search(text):
                comments.append(text)
            continue
        for match in _LITERAL.finditer(text):
            shown = " ".join((match.group(1) or match.group(2) or "").split())
            if _is_message(shown):
                literals.append(shown)
        if code:
            for match in _IDENTIFIER.finditer(_LITERAL.sub(" ", text)):
                code_words += [w for w in name_words(match.group(0)).split() if _is_word(w)]
    words: list[str] = []
    seen: set[str] = set()
    head = name_words(title.replace(".", " ")).split()
    for word in [*head, *" ".join([*comments, *literals, *code_words]).split()]:
        key = word.lower().strip(".,;:()*")
        if len(key) > 1 and key not in seen:
            seen.add(key)
            words.append(word)
    if len(words) - len(head) < MIN_DENSE_WORDS:
        return None
    return " ".join(words[:limit])


def prose_text(title: str, raw: list[str], limit: int = SHORT_DENSE_WORDS) -> str | None:
    """Documentation as written (sentences embed better than a bag of their words)."""
    words = " ".join([title, *raw]).replace("`", "").split()
    return " ".join(words[:limit]) if len(words) > MIN_DENSE_WORDS else None


def screen_text(title: str, raw: list[str]) -> str:
    """What a screen passage is searched by: its field names and the texts it shows (the
    macro's positions and attributes say nothing)."""
    labels = [ln.split(None, 1)[0] for ln in raw if ln[:1].strip() and not ln.startswith("*")]
    texts = [m.group(1) or m.group(2) or "" for ln in raw for m in _LITERAL.finditer(ln)]
    return "\n".join([title, " ".join(labels), *texts])


def lexical_text(title: str, raw: list[str], fixed: bool) -> str:
    """The title and the code area of every line (sequence and identification areas dropped)."""
    return "\n".join([title, *(code_area(line, fixed)[1] for line in raw)])


def _cut(start: int, end: int, limit: int = MAX_LINES) -> list[tuple[int, int]]:
    return [(s, min(s + limit - 1, end)) for s in range(start, end + 1, limit)]


def _with_comments_above(lines: list[str], start: int, floor: int, fixed: bool) -> int:
    """Moves a 1-based start line up over the comment block right above it."""
    while start - 1 > floor and is_comment(lines[start - 2], fixed):
        start -= 1
    return start


def cobol_ranges(
    lines: list[str], entities: list[Entity], path: str, fixed: bool
) -> list[tuple[int, int, str, str | None, str]]:
    """(start, end, kind, entity key, title) of a program's passages, in order."""
    heads = sorted(
        (e for e in entities if e.path == path and e.kind in ("paragraph", "section")),
        key=lambda e: e.line_start,
    )
    programs = [e for e in entities if e.kind == "program" and e.path == path]
    program = programs[0] if programs else None
    procedure = next(
        (i + 1 for i, ln in enumerate(lines) if _PROCEDURE.match(code_area(ln, fixed)[1])), None
    )
    first_head = heads[0].line_start if heads else len(lines) + 1
    body_start = procedure or first_head
    out: list[tuple[int, int, str, str | None, str]] = []
    pgm_key = program.key if program else None
    pgm_name = program.name if program else path.rsplit("/", 1)[-1]
    # Header and data division: split at 01/77 levels once a piece has DATA_LINES lines.
    start = 1
    for number in range(2, body_start):
        text = code_area(lines[number - 1], fixed)[1]
        long_enough = number - start >= DATA_LINES and _LEVEL_01.match(text)
        if long_enough or number - start >= MAX_LINES:
            kind = "header" if start == 1 else "data"
            out.append((start, number - 1, kind, pgm_key, pgm_name))
            start = number
    if body_start > start:
        out.append((start, body_start - 1, "header" if start == 1 else "data", pgm_key, pgm_name))
    starts = [_with_comments_above(lines, h.line_start, body_start, fixed) for h in heads]
    if heads and starts[0] > body_start:
        out.append((body_start, starts[0] - 1, "code", pgm_key, pgm_name))
    for index, head in enumerate(heads):
        end = starts[index + 1] - 1 if index + 1 < len(heads) else len(lines)
        title = f"{head.program}.{head.name}" if head.program else head.name
        for piece in _cut(starts[index], end):
            out.append((*piece, "code", head.key, title))
    return [r for r in out if r[1] >= r[0]]


def _spans(entities: list[Entity], kind: str, total: int) -> list[tuple[int, int, str, str]]:
    found = sorted((e for e in entities if e.kind == kind), key=lambda e: e.line_start)
    out = []
    for index, entity in enumerate(found):
        end = found[index + 1].line_start - 1 if index + 1 < len(found) else total
        out.append((entity.line_start, max(entity.line_start, end), entity.key, entity.name))
    return out


def is_prose(lines: list[str]) -> bool:
    """Whether a text reads as sentences (enough alphabetic words per line) — not data."""
    words = [w for ln in lines for w in ln.split()]
    if not words:
        return False
    alphabetic = sum(1 for w in words if re.fullmatch(r"[A-Za-z][a-z]+[.,;:]?", w))
    return alphabetic / len(words) > 0.5 and len(words) / max(1, len(lines)) >= 3


def passages(path: str, kind: str, text: str, entities: list[Entity], fixed: bool) -> list[Passage]:
    """The passages of one file, in line order."""
    lines = text.splitlines()
    if not lines:
        return []
    name = path.rsplit("/", 1)[-1]
    ranges: list[tuple[int, int, str, str | None, str]] = []
    if kind == "cobol":
        ranges = cobol_ranges(lines, entities, path, fixed)
    elif kind in ("jcl", "bms"):
        part = "jcl" if kind == "jcl" else "map"
        spans = _spans(entities, "step" if kind == "jcl" else "map", len(lines))
        if spans and spans[0][0] > 1:
            ranges.append((1, spans[0][0] - 1, part, None, name))
        ranges += [(s, e, part, key, f"{name} {title}") for s, e, key, title in spans]
        ranges = ranges or [(1, len(lines), part, None, name)]
    elif kind == "markdown":
        for section in sections(lines):
            title = f"{name} {section.title}".strip()
            ranges += [(s, e, "doc", None, title) for s, e in pieces(lines, section, MAX_LINES)]
    else:
        key = next((e.key for e in entities if e.kind == "copybook"), None)
        ranges = [(1, len(lines), kind if kind != "markdown" else "doc", key, name)]
    out: list[Passage] = []
    for start, end, part, key, title in ranges:
        for first, last in _cut(start, end):
            raw = lines[first - 1 : last]
            if not any(line.strip() for line in raw):
                continue
            limit = DENSE_WORDS.get(part, SHORT_DENSE_WORDS)
            if part == "data" and any(_SQL.search(line) for line in raw):
                limit = DENSE_WORDS["code"]  # a cursor's query is logic, not a layout
            if part == "doc":
                code = fenced(raw)  # the prose says what a passage is about, then its code
                ordered = [ln for ln, c in zip(raw, code, strict=True) if not c] + [
                    ln for ln, c in zip(raw, code, strict=True) if c and not is_fence(ln)
                ]
                dense = prose_text(title, ordered, limit)
            elif part == "text":
                dense = prose_text(title, raw, limit) if is_prose(raw) else None
            else:
                dense = dense_text(title, raw, fixed, part != "map", limit)
            body = "\n".join(raw)
            words = screen_text(title, raw) if part == "map" else lexical_text(title, raw, fixed)
            out.append(Passage(first, last, body, part, key, title, words, dense))
    return out
