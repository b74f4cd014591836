"""Tokens and statements over preprocessed COBOL lines, each token knowing its source line."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from vigia.worlds.ingest.cobol.preprocess import Line

_TOKEN = re.compile(
    r"'(?:[^']|'')*'?|\"(?:[^\"]|\"\")*\"?"  # literals (possibly unclosed at line end)
    r"|==.*?=="  # pseudo-text
    r"|:?[A-Za-z0-9][A-Za-z0-9-]*(?:\.[0-9]+)?"  # words, host variables, numbers
    r"|[+-]?\.\d+"  # decimal literals such as .100
    r"|\.(?=\s|$)"  # statement-ending period
    r"|[=<>()+*/,:&]|\S"
)

RESERVED = frozenset(
    [
        "ACCEPT",
        "ADD",
        "ALSO",
        "AND",
        "AT",
        "BY",
        "CALL",
        "CANCEL",
        "CLOSE",
        "COMPUTE",
        "CONTINUE",
        "CORR",
        "CORRESPONDING",
        "DELETE",
        "DELIMITED",
        "DISPLAY",
        "DIVIDE",
        "ELSE",
        "END",
        "END-ADD",
        "END-CALL",
        "END-COMPUTE",
        "END-DELETE",
        "END-DIVIDE",
        "END-EVALUATE",
        "END-EXEC",
        "END-IF",
        "END-MULTIPLY",
        "END-PERFORM",
        "END-READ",
        "END-RETURN",
        "END-REWRITE",
        "END-SEARCH",
        "END-START",
        "END-STRING",
        "END-SUBTRACT",
        "END-UNSTRING",
        "END-WRITE",
        "EQUAL",
        "EVALUATE",
        "EXEC",
        "EXIT",
        "FROM",
        "GIVING",
        "GO",
        "GOBACK",
        "GREATER",
        "IF",
        "INITIALIZE",
        "INSPECT",
        "INTO",
        "INVALID",
        "IS",
        "KEY",
        "LESS",
        "MOVE",
        "MULTIPLY",
        "NEXT",
        "NOT",
        "OF",
        "OR",
        "OTHER",
        "PERFORM",
        "READ",
        "RECORD",
        "RELEASE",
        "REMAINDER",
        "RETURN",
        "REWRITE",
        "ROUNDED",
        "RUN",
        "SEARCH",
        "SECTION",
        "SENTENCE",
        "SET",
        "SIZE",
        "START",
        "STOP",
        "STRING",
        "SUBTRACT",
        "THAN",
        "THEN",
        "THROUGH",
        "THRU",
        "TIMES",
        "TO",
        "TRUE",
        "FALSE",
        "UNSTRING",
        "UNTIL",
        "USING",
        "VARYING",
        "WHEN",
        "WITH",
        "WRITE",
        "ZERO",
        "ZEROS",
        "ZEROES",
        "SPACE",
        "SPACES",
        "HIGH-VALUES",
        "LOW-VALUES",
        "DIVISION",
        "PROCEDURE",
        "DECLARATIVES",
        "ERROR",
        "OVERFLOW",
        "EXCEPTION",
        "ON",
        "AFTER",
        "BEFORE",
        "ALL",
        "ANY",
        "INPUT",
        "OUTPUT",
        "I-O",
        "EXTEND",
        "OPEN",
        "ADVANCING",
        "PAGE",
        "LINE",
        "LINES",
        "TALLYING",
        "REPLACING",
        "CONVERTING",
        "FOR",
        "LEADING",
        "TRAILING",
        "FUNCTION",
        "ADDRESS",
        "LENGTH",
        "REFERENCE",
        "CONTENT",
        "VALUE",
    ]
)

VERBS = frozenset(
    [
        "ACCEPT",
        "ADD",
        "CALL",
        "CANCEL",
        "CLOSE",
        "COMPUTE",
        "CONTINUE",
        "DELETE",
        "DISPLAY",
        "DIVIDE",
        "ELSE",
        "EVALUATE",
        "EXEC",
        "EXIT",
        "GO",
        "GOBACK",
        "IF",
        "INITIALIZE",
        "INSPECT",
        "MOVE",
        "MULTIPLY",
        "OPEN",
        "PERFORM",
        "READ",
        "RELEASE",
        "RETURN",
        "REWRITE",
        "SEARCH",
        "SET",
        "START",
        "STOP",
        "STRING",
        "SUBTRACT",
        "UNSTRING",
        "WHEN",
        "WRITE",
        "END-IF",
        "END-EVALUATE",
        "END-PERFORM",
        "END-READ",
        "END-CALL",
        "END-COMPUTE",
        "END-STRING",
        "END-UNSTRING",
        "END-WRITE",
        "END-SEARCH",
        "END-ADD",
        "END-SUBTRACT",
        "END-MULTIPLY",
        "END-DIVIDE",
        "END-REWRITE",
        "END-START",
        "END-DELETE",
        "END-RETURN",
    ]
)


@dataclass(frozen=True)
class Token:
    """A token, upper-cased (literals keep their case), with the line that holds it."""

    text: str
    line: Line

    @property
    def is_literal(self) -> bool:
        return self.text[:1] in ("'", '"')


def tokenize(lines: Iterable[Line]) -> list[Token]:
    """Tokens of every non-comment line, in order."""
    out: list[Token] = []
    for line in lines:
        if line.comment:
            continue
        for match in _TOKEN.finditer(line.text):
            text = match.group(0)
            if text[:1] not in ("'", '"'):
                text = text.upper()
            out.append(Token(text, line))
    return out


def statements(tokens: list[Token]) -> list[list[Token]]:
    """Splits tokens into period-terminated sentences (the period dropped)."""
    out: list[list[Token]] = []
    current: list[Token] = []
    for token in tokens:
        if token.text == ".":
            if current:
                out.append(current)
            current = []
        else:
            current.append(token)
    if current:
        out.append(current)
    return out


def literal_value(token: Token) -> str:
    """The text inside a quoted literal."""
    return token.text.strip("'\"")
