"""Procedure division edges: PERFORM (THRU), CALL, GO TO, field reads and writes (a literal
moved into a field is kept as the edge's detail), EXEC CICS and EXEC SQL blocks."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vigia.worlds.graph.extraction import Edge, Entity, Extraction
from vigia.worlds.graph.keys import Kind, block_key, make, paragraph_key, program_key
from vigia.worlds.ingest.cobol.execs import cics_resources, sql_facts
from vigia.worlds.ingest.cobol.preprocess import Line
from vigia.worlds.ingest.cobol.tokens import VERBS, Token, literal_value, tokenize

_DIVISION = re.compile(r"^PROCEDURE\s+DIVISION\b", re.I)


@dataclass
class ProcedureContext:
    """What the procedure pass needs: the program, its data names, headers, and the output."""

    program: str
    items: dict[str, Entity]
    headers: list[tuple[str, str, Line]]
    out: Extraction
    moved: dict[str, list[str]] = field(default_factory=dict)

    def values(self, name: str) -> list[str]:
        """Literal values data item ``name`` may hold: its VALUE, then literals moved in."""
        item = self.items.get(name)
        found = []
        if item is not None and item.detail and " VALUE " in f" {item.detail}":
            value = item.detail.partition("VALUE ")[2].strip()
            if value and value not in ("SPACES", "SPACE", "ZERO", "ZEROS", "LOW-VALUES"):
                found.append(value)
        return list(dict.fromkeys(found + self.moved.get(name, [])))


def literal_moves(tokens: list[Token]) -> dict[str, list[str]]:
    """``MOVE 'lit' TO a b`` → {a: [lit], b: [lit]} over a program's procedure tokens."""
    moved: dict[str, list[str]] = {}
    for i, token in enumerate(tokens[:-3]):
        if token.text != "MOVE" or not tokens[i + 1].is_literal or tokens[i + 2].text != "TO":
            continue
        value = literal_value(tokens[i + 1])
        for target in tokens[i + 3 :]:
            if target.is_literal or target.text in VERBS or target.text == ".":
                break
            if target.text not in ("(", ")", ","):
                moved.setdefault(target.text, []).append(value)
    return moved


def _split_on_verbs(tokens: list[Token]) -> list[list[Token]]:
    out: list[list[Token]] = []
    current: list[Token] = []
    for token in tokens:
        starts = token.text == "." or (not token.is_literal and token.text in VERBS)
        if starts and current:
            out.append(current)
            current = []
        if token.text != ".":
            current.append(token)
    if current:
        out.append(current)
    return out


class _Walker:
    def __init__(self, ctx: ProcedureContext) -> None:
        self.ctx = ctx
        self.names = {name for kind, name, _ in ctx.headers}
        self.order = [name for kind, name, _ in ctx.headers if kind == "paragraph"]
        self.keys = {name: block_key(kind, ctx.program, name) for kind, name, _ in ctx.headers}
        self.src = program_key(ctx.program)

    def edge(self, kind: str, dst: str, token: Token, detail: str | None = None) -> None:
        self.ctx.out.add_edge(Edge(kind, self.src, dst, token.line.path, token.line.line, detail))

    def field(self, kind: str, token: Token, detail: str | None = None) -> None:
        item = self.ctx.items.get(token.text)
        if item is None:
            return
        self.edge(kind, item.key, token, detail)
        if item.kind == "condition" and item.detail and item.detail.startswith("88 of "):
            parent = self.ctx.items.get(item.detail[6:].split(" ", 1)[0])
            if parent is not None:
                self.edge(kind, parent.key, token)

    def refs(self, tokens: list[Token], kind: str, detail: str | None = None) -> None:
        """Marks data names at paren depth 0 as ``kind``; subscripts are always reads."""
        depth, skip = 0, False
        for token in tokens:
            if token.text == "(":
                depth += 1
            elif token.text == ")":
                depth = max(0, depth - 1)
            elif skip:
                skip = False
            elif token.text in ("OF", "IN"):
                skip = True
            elif not token.is_literal:
                self.field(kind if depth == 0 else "reads", token, detail if depth == 0 else None)

    def statement(self, tokens: list[Token]) -> None:
        verb, rest = tokens[0].text, tokens[1:]
        words = [t.text for t in rest]
        handler = getattr(self, f"_{verb.replace('-', '_').lower()}", None)
        if handler is not None:
            handler(rest, words)
        else:
            self.refs(rest, "reads")

    def _split(self, rest: list[Token], words: list[str], *marks: str) -> int:
        return next((i for i, w in enumerate(words) if w in marks), len(words))

    def _around(
        self, rest: list[Token], words: list[str], marks: tuple[str, ...], before: str, after: str
    ) -> None:
        """Operands before the first of ``marks`` get ``before``; those after, ``after``."""
        cut = self._split(rest, words, *marks)
        self.refs(rest[:cut], before)
        self.refs(rest[cut + 1 :], after)

    def _move(self, rest: list[Token], words: list[str]) -> None:
        cut = self._split(rest, words, "TO")
        source = rest[:cut]
        literal = len(source) == 1 and (source[0].is_literal or source[0].text.isdigit())
        self.refs(source, "reads")
        self.refs(rest[cut + 1 :], "writes", f"= {literal_value(source[0])}" if literal else None)

    def _compute(self, rest: list[Token], words: list[str]) -> None:
        self._around(rest, words, ("=", "EQUAL"), "writes", "reads")

    def _arith(self, rest: list[Token], words: list[str], into: str) -> None:
        if "GIVING" in words:
            self._around(rest, words, ("GIVING",), "reads", "writes")
            return
        cut = self._split(rest, words, into)
        self.refs(rest[:cut], "reads")
        self.refs(rest[cut + 1 :], "reads")
        self.refs(rest[cut + 1 :], "writes")

    def _add(self, rest: list[Token], words: list[str]) -> None:
        self._arith(rest, words, "TO")

    def _subtract(self, rest: list[Token], words: list[str]) -> None:
        self._arith(rest, words, "FROM")

    def _multiply(self, rest: list[Token], words: list[str]) -> None:
        self._arith(rest, words, "BY")

    def _divide(self, rest: list[Token], words: list[str]) -> None:
        remainder = self._split(rest, words, "REMAINDER")
        if remainder < len(words):
            self.refs(rest[remainder + 1 :], "writes")
            rest, words = rest[:remainder], words[:remainder]
        self._arith(rest, words, "INTO")

    def _into_writes(self, rest: list[Token], words: list[str]) -> None:
        self._around(rest, words, ("INTO",), "reads", "writes")

    _string = _into_writes
    _unstring = _into_writes
    _read = _into_writes
    _return = _into_writes

    def _write(self, rest: list[Token], words: list[str]) -> None:
        self._around(rest, words, ("FROM",), "writes", "reads")

    _rewrite = _write
    _release = _write

    def _initialize(self, rest: list[Token], words: list[str]) -> None:
        cut = self._split(rest, words, "REPLACING")
        self.refs(rest[:cut], "writes")

    def _accept(self, rest: list[Token], words: list[str]) -> None:
        cut = self._split(rest, words, "FROM")
        self.refs(rest[:cut], "writes")

    def _set(self, rest: list[Token], words: list[str]) -> None:
        self._around(rest, words, ("TO", "UP", "DOWN"), "writes", "reads")

    def _go(self, rest: list[Token], words: list[str]) -> None:
        for token in rest:
            if token.text in self.keys:
                self.edge("goes_to", self.keys[token.text], token)

    def _perform(self, rest: list[Token], words: list[str]) -> None:
        if not rest or rest[0].text not in self.keys:
            self._loop_clauses(rest, words)
            return
        target = rest[0]
        self.edge("performs", self.keys[target.text], target)
        tail, tail_words = rest[1:], words[1:]
        if tail_words[:1] in (["THRU"], ["THROUGH"]) and len(tail) > 1:
            last = tail[1].text
            self.edge(
                "performs",
                self.keys.get(last, paragraph_key(self.ctx.program, last)),
                tail[1],
                f"THRU from {target.text}",
            )
            if target.text in self.order and last in self.order:
                start, stop = self.order.index(target.text), self.order.index(last)
                for name in self.order[start + 1 : stop]:
                    self.edge(
                        "performs_thru", self.keys[name], target, f"{target.text} THRU {last}"
                    )
            tail, tail_words = tail[2:], tail_words[2:]
        self._loop_clauses(tail, tail_words)

    def _loop_clauses(self, rest: list[Token], words: list[str]) -> None:
        if "VARYING" in words:
            index = words.index("VARYING")
            if index + 1 < len(rest):
                self.refs([rest[index + 1]], "writes")
        self.refs(rest, "reads")

    def _call(self, rest: list[Token], words: list[str]) -> None:
        if not rest:
            return
        target = rest[0]
        if target.is_literal:
            self.edge("calls", program_key(literal_value(target).upper()), target)
        else:
            for value in self.ctx.values(target.text):
                self.edge("calls_dynamic", program_key(value.upper()), target, f"via {target.text}")
            self.field("reads", target)
        self.refs(rest[1:], "reads")

    def exec_block(self, tokens: list[Token], lines: list[Line]) -> None:
        kind = "sql" if len(tokens) > 1 and tokens[1].text == "SQL" else "cics"
        first = tokens[0].line
        text = " ".join(" ".join(ln.text.split()) for ln in lines)[:2000]
        key = make(Kind.SQL if kind == "sql" else Kind.CICS, self.ctx.program, first.line)
        self.ctx.out.entities.append(
            Entity(
                kind,
                f"EXEC {kind.upper()}",
                key,
                first.path,
                first.line,
                lines[-1].line,
                self.ctx.program,
                origin=first.origin,
                detail=text,
            )
        )
        self.edge("executes", key, tokens[0])
        body = tokens[2:]
        if kind == "sql":
            self._sql(body, text, tokens[0])
        else:
            self._cics(body)

    def _sql(self, body: list[Token], text: str, anchor: Token) -> None:
        writing = False
        for token in body:
            if token.text == "INTO":
                writing = True
            elif token.text in ("FROM", "WHERE", "SET", "VALUES"):
                writing = False
            elif token.text.startswith(":"):
                self.field("writes" if writing else "reads", Token(token.text[1:], token.line))
        facts = sql_facts(text.split(None, 2)[2] if len(text.split(None, 2)) > 2 else "")
        for kind, tables in (("reads", facts.reads), ("writes", facts.writes)):
            for table in tables:
                self.edge(kind, make(Kind.TABLE, table), anchor, f"SQL {facts.verb}")
                self.resource("table", table, make(Kind.TABLE, table), anchor, f"SQL {facts.verb}")
        if facts.uses_cursor:
            cursor = make(Kind.CURSOR, self.ctx.program, facts.uses_cursor)
            self.edge("uses", cursor, anchor, f"SQL {facts.verb}")
        if facts.declares:
            declare_cursor(self.ctx, facts.declares, facts.reads, anchor)

    def _cics(self, body: list[Token]) -> None:
        resources, fields = cics_resources(body, self.ctx.values)
        for mode, token in fields:
            self.field(mode, token)
        for found in resources:
            self.edge(found.edge, found.key, found.token, found.detail)
            if found.kind != "program":
                self.resource(found.kind, found.name, found.key, found.token, found.detail)

    def resource(self, kind: str, name: str, key: str, token: Token, detail: str) -> None:
        """A resource as used here (a table, file, queue…): found by name even when no
        definition of it (DDL, CSD) is in the world."""
        line = token.line
        self.ctx.out.entities.append(
            Entity(
                kind,
                name,
                key,
                line.path,
                line.line,
                line.line,
                self.ctx.program,
                origin=line.origin,
                detail=detail,
            )
        )


def declare_cursor(ctx: ProcedureContext, name: str, tables: tuple[str, ...], at: Token) -> None:
    """A ``DECLARE name CURSOR`` (data or procedure division): the cursor and what it reads."""
    key = make(Kind.CURSOR, ctx.program, name)
    line = at.line
    detail = f"reads {', '.join(tables)}" if tables else None
    ctx.out.entities.append(
        Entity(
            "cursor",
            name,
            key,
            line.path,
            line.line,
            line.line,
            ctx.program,
            None,
            line.origin,
            detail,
        )
    )
    for table in tables:
        ctx.out.add_edge(
            Edge("reads", key, make(Kind.TABLE, table), line.path, line.line, "SQL DECLARE")
        )


def extract_procedure(ctx: ProcedureContext, lines: list[Line]) -> None:
    """Adds the procedure division's edges of one program to ``ctx.out``."""
    walker = _Walker(ctx)
    ctx.moved = literal_moves(tokenize(ln for ln in lines if not ln.comment))
    header_lines = {id(line): name for _kind, name, line in ctx.headers}
    code = [ln for ln in lines if not ln.comment and not _DIVISION.match(ln.text)]
    pending: list[Token] = []

    def flush() -> None:
        for statement in _split_on_verbs(pending):
            walker.statement(statement)
        pending.clear()

    index = 0
    while index < len(code):
        line = code[index]
        if id(line) in header_lines:
            flush()
            walker.src = walker.keys[header_lines[id(line)]]
            index += 1
            continue
        tokens = tokenize([line])
        exec_at = next((i for i, t in enumerate(tokens) if t.text == "EXEC"), None)
        if exec_at is None:
            pending.extend(tokens)
            index += 1
            continue
        pending.extend(tokens[:exec_at])
        flush()
        block_lines, block = [line], list(tokens[exec_at:])
        while not any(t.text == "END-EXEC" for t in block) and index + 1 < len(code):
            index += 1
            block_lines.append(code[index])
            block.extend(tokenize([code[index]]))
        end = next((i for i, t in enumerate(block) if t.text == "END-EXEC"), len(block))
        walker.exec_block(block[:end], block_lines)
        pending.extend(t for t in block[end + 1 :] if t.text != ".")
        index += 1
    flush()
