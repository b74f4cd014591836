"""COBOL extractor: programs, data items, sections and paragraphs, then procedure edges.

Works on the preprocessor's logical lines, so copybook items keep their copybook of origin
and every entity and edge cites the real file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vigia.worlds.graph.extraction import Edge, Entity, Extraction
from vigia.worlds.graph.keys import Kind, block_key, copybook_key, data_key, make, program_key
from vigia.worlds.ingest.cobol.execs import sql_facts
from vigia.worlds.ingest.cobol.header import program_purpose
from vigia.worlds.ingest.cobol.preprocess import Line, Preprocessed
from vigia.worlds.ingest.cobol.procedure import ProcedureContext, declare_cursor, extract_procedure
from vigia.worlds.ingest.cobol.tokens import RESERVED, Token, literal_value, statements, tokenize

_PROGRAM_ID = re.compile(r"^PROGRAM-ID\s*\.?\s*['\"]?([A-Za-z0-9][A-Za-z0-9-]*)", re.I)
_DIVISION = re.compile(r"^(IDENTIFICATION|ID|ENVIRONMENT|DATA|PROCEDURE)\s+DIVISION\b", re.I)
_END_PROGRAM = re.compile(r"^END\s+PROGRAM\b", re.I)
_SECTION = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]*)\s+SECTION\s*\.", re.I)
_PARAGRAPH = re.compile(r"^([A-Za-z0-9][A-Za-z0-9-]*)\s*\.\s*$", re.I)
_PIC = re.compile(r"\bPIC(?:TURE)?\s+(?:IS\s+)?(\S+)", re.I)


@dataclass
class _Program:
    name: str
    first: Line
    last: Line
    environment: list[Line] = field(default_factory=list)
    data: list[Line] = field(default_factory=list)
    procedure: list[Line] = field(default_factory=list)


def _split_programs(lines: list[Line]) -> list[_Program]:
    programs: list[_Program] = []
    current: _Program | None = None
    division = ""
    for line in lines:
        if line.comment:
            if current is not None and division == "PROCEDURE":
                current.procedure.append(line)
            continue
        match = _PROGRAM_ID.match(line.text)
        if match:
            current = _Program(match.group(1).upper(), line, line)
            programs.append(current)
            division = "IDENTIFICATION"
            continue
        if current is None:
            continue
        current.last = line
        if _END_PROGRAM.match(line.text):
            division = ""
            continue
        div = _DIVISION.match(line.text)
        if div:
            division = div.group(1).upper()
            if division == "PROCEDURE":
                current.procedure.append(line)
            continue
        if division == "ENVIRONMENT":
            current.environment.append(line)
        elif division == "DATA":
            current.data.append(line)
        elif division == "PROCEDURE":
            current.procedure.append(line)
    return programs


def _data_items(program: _Program, out: Extraction) -> dict[str, Entity]:
    """Data items (level, PIC, copybook of origin), FD/SD files; returns name → entity."""
    items: dict[str, Entity] = {}
    stack: list[tuple[int, Entity]] = []
    ended: list[tuple[Entity, int]] = []
    for sentence in statements(tokenize(program.data)):
        first = sentence[0]
        words = [t.text for t in sentence]
        if words[0] in ("FD", "SD") and len(words) > 1:
            entity = _entity(
                program, "file", words[1], make(Kind.FD, program.name, words[1]), first
            )
            out.entities.append(entity)
            items[words[1]] = entity
            continue
        if not words[0].isdigit() or len(words) < 2:
            continue
        level, name = int(words[0]), words[1]
        if level not in range(1, 50) and level not in (66, 77, 88):
            continue
        if name == "FILLER" or not re.match(r"^[A-Z0-9][A-Z0-9-]*$", name):
            continue
        text = " ".join(words[2:])
        pic = _PIC.search(_raw_text(sentence))
        detail = f"PIC {pic.group(1).rstrip('.')}" if pic else None
        kind = "condition" if level == 88 else "data"
        if level == 88:
            values = text.split("VALUE", 1)[-1].strip(" S").strip() if "VALUE" in text else ""
            parent = stack[-1][1].name if stack else ""
            detail = f"88 of {parent} VALUE {values}".strip()
        elif "VALUE" in words:
            index = words.index("VALUE")
            value = next((t for t in sentence[index + 1 :] if t.text != "IS"), None)
            if value is not None:
                shown = literal_value(value) if value.is_literal else value.text
                detail = f"{detail or ''} VALUE {shown}".strip()
        occurs = _occurs(words)
        if occurs:
            detail = f"{detail or ''} {occurs}".strip()
        last_line = sentence[-1].line
        entity = Entity(
            kind,
            name,
            data_key(program.name, name),
            first.line.path,
            first.line.line,
            last_line.line if last_line.path == first.line.path else first.line.line,
            program.name,
            level,
            first.line.origin,
            detail,
        )
        if level == 88:
            out.entities.append(entity)
            items.setdefault(name, entity)
            continue
        while stack and stack[-1][0] >= level and level not in (66, 77):
            ended.append((stack.pop()[1], first.line.line))
        if level == 77:
            stack.clear()
        stack.append((level, entity))
        out.entities.append(entity)
        items.setdefault(name, entity)
        if "DEPENDING" in words[:-1]:
            count = [w for w in words[words.index("DEPENDING") + 1 :] if w != "ON"][:1]
            if count:
                out.add_edge(
                    Edge(
                        "depends_on",
                        entity.key,
                        data_key(program.name, count[0]),
                        first.line.path,
                        first.line.line,
                        occurs,
                    )
                )
    # Group items span to the line before the next item of the same or a higher level.
    for group, next_line in ended:
        if group.detail is None and next_line - 1 > group.line_end:
            same_file = all(
                e.path == group.path
                for e in out.entities
                if e.program == group.program and group.line_start <= e.line_start < next_line
            )
            if same_file:
                index = out.entities.index(group)
                out.entities[index] = _replace_end(group, next_line - 1)
                items[group.name] = out.entities[index]
    return items


def _occurs(words: list[str]) -> str | None:
    """``OCCURS 1 TO 50 [TIMES] DEPENDING ON N`` (or ``OCCURS 12``) as written, or None."""
    if "OCCURS" not in words:
        return None
    clause = words[words.index("OCCURS") :]
    stop = next(
        (i for i, w in enumerate(clause) if w in ("PIC", "PICTURE", "VALUE", "INDEXED", "USAGE")),
        len(clause),
    )
    return " ".join(w for w in clause[:stop] if w not in ("TIMES", "IS")) or None


def _raw_text(sentence: list[Token]) -> str:
    seen: list[Line] = []
    for token in sentence:
        if not seen or seen[-1] is not token.line:
            seen.append(token.line)
    return " ".join(line.text for line in seen)


def _replace_end(entity: Entity, line_end: int) -> Entity:
    return Entity(
        entity.kind,
        entity.name,
        entity.key,
        entity.path,
        entity.line_start,
        line_end,
        entity.program,
        entity.level,
        entity.origin,
        entity.detail,
    )


def _entity(program: _Program, kind: str, name: str, key: str, token: Token) -> Entity:
    return Entity(
        kind,
        name,
        key,
        token.line.path,
        token.line.line,
        token.line.line,
        program.name,
        origin=token.line.origin,
    )


def _file_assignments(program: _Program, out: Extraction) -> None:
    """``SELECT file ASSIGN TO ddname`` → an ``assigns`` edge from the file to the DD name."""
    for sentence in statements(tokenize(program.environment)):
        words = [t.text for t in sentence]
        if "SELECT" in words and "ASSIGN" in words:
            name = words[words.index("SELECT") + 1]
            after = [t for t in sentence[words.index("ASSIGN") + 1 :] if t.text not in ("TO",)]
            if not after:
                continue
            target = literal_value(after[0]) if after[0].is_literal else after[0].text
            dd = target.rsplit("-", 1)[-1] if target.startswith(("UT-S-", "S-")) else target
            out.add_edge(
                Edge(
                    "assigns",
                    make(Kind.FD, program.name, name),
                    make(Kind.DD, dd.upper()),
                    sentence[0].line.path,
                    sentence[0].line.line,
                )
            )


def _headers(program: _Program) -> list[tuple[str, str, Line]]:
    """Sections and paragraphs of the procedure division, in order: (kind, name, line)."""
    found: list[tuple[str, str, Line]] = []
    sentence_ended = True  # a header starts after a period (or a division / section header)
    for line in program.procedure:
        if line.comment:
            continue
        if _DIVISION.match(line.text):
            sentence_ended = True
            continue
        section = _SECTION.match(line.text)
        if section and section.group(1).upper() not in RESERVED:
            found.append(("section", section.group(1).upper(), line))
            sentence_ended = True
            continue
        paragraph = _PARAGRAPH.match(line.text)
        if paragraph:
            name = paragraph.group(1).upper()
            # In area B, a hyphenated name alone on a line is a header only after a period:
            # ``CURRENT-SECOND.`` closing a DISPLAY, ``REPORT-FILE.`` closing an OPEN are not.
            if name not in RESERVED and (line.area_a or ("-" in name and sentence_ended)):
                found.append(("paragraph", name, line))
        sentence_ended = line.text.rstrip().endswith(".")
    return found


def _comment_above(program: _Program, header: Line) -> str | None:
    """The comment block right above a header, joined (its description, when there is one)."""
    lines = program.procedure
    index = next((i for i, ln in enumerate(lines) if ln is header), None)
    if index is None:
        return None
    block: list[str] = []
    i = index - 1
    while i >= 0 and lines[i].comment:
        text = lines[i].text.strip("*-= ").strip()
        if text:
            block.append(text)
        i -= 1
    return " ".join(reversed(block))[:500] or None


def extract_cobol(pre: Preprocessed, path: str) -> Extraction:
    """Entities and edges of every program in one preprocessed COBOL file."""
    out = Extraction(copies=sorted({c.name for c in pre.copies}))
    for program in _split_programs(pre.lines):
        pgm = program_key(program.name)
        end_line = program.last.line if program.last.path == path else program.first.line
        out.entities.append(
            Entity(
                "program",
                program.name,
                pgm,
                path,
                program.first.line,
                end_line,
                program.name,
                detail=program_purpose(pre.lines, program.first),
            )
        )
        for use in pre.copies:
            if use.path == path and program.first.line <= use.line <= end_line:
                out.add_edge(
                    Edge(
                        "copies",
                        pgm,
                        copybook_key(use.name),
                        use.path,
                        use.line,
                        use.describe_replacing()
                        or ("EXEC SQL INCLUDE" if use.statement == "INCLUDE" else None),
                    )
                )
        items = _data_items(program, out)
        _file_assignments(program, out)
        headers = _headers(program)
        ranges = _ranges(program, headers, end_line, path)
        section = None
        for (kind, name, line), last in zip(headers, ranges, strict=True):
            key = block_key(kind, program.name, name)
            detail = _comment_above(program, line)
            out.entities.append(
                Entity(
                    kind,
                    name,
                    key,
                    line.path,
                    line.line,
                    last,
                    program.name,
                    origin=line.origin,
                    detail=detail,
                )
            )
            parent = section if (kind == "paragraph" and section) else pgm
            out.add_edge(Edge("contains", parent, key, line.path, line.line))
            if kind == "section":
                section = key
        context = ProcedureContext(program.name, items, headers, out)
        _data_division_sql(context, program.data)
        extract_procedure(context, program.procedure)
    return out


def _data_division_sql(context: ProcedureContext, lines: list[Line]) -> None:
    """Cursors declared in WORKING-STORAGE (``EXEC SQL DECLARE c CURSOR FOR SELECT…``)."""
    code = [ln for ln in lines if not ln.comment]
    for start, line in enumerate(code):
        if not re.search(r"\bEXEC\s+SQL\b", line.text, re.I):
            continue
        block = [ln.text for ln in code[start : start + 60]]
        text = " ".join(block)
        end = re.search(r"\bEND-EXEC\b", text, re.I)
        body = re.split(
            r"\bEXEC\s+SQL\b", text[: end.start()] if end else text, maxsplit=1, flags=re.I
        )[-1]
        facts = sql_facts(body)
        if facts.declares:
            declare_cursor(context, facts.declares, facts.reads, tokenize([line])[0])


def _ranges(
    program: _Program, headers: list[tuple[str, str, Line]], end_line: int, path: str
) -> list[int]:
    """Last code line of each header's body (sections run until the next section)."""
    code = [ln for ln in program.procedure if not ln.comment and ln.path == path]
    ends: list[int] = []
    for index, (kind, _name, line) in enumerate(headers):
        stop = end_line + 1
        for later_kind, _n, later in headers[index + 1 :]:
            if kind == "paragraph" or later_kind == "section":
                stop = later.line
                break
        body = [ln.line for ln in code if line.line <= ln.line < stop]
        ends.append(max(body) if body else line.line)
    return ends
