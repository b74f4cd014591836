"""COBOL text replacement: ``COPY … REPLACING`` and ``REPLACE`` operands, applied in one
left-to-right pass (pseudo-text, whole words, ``LEADING``/``TRAILING``, partial words)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = r"A-Za-z0-9-"


@dataclass(frozen=True)
class Replacement:
    """One ``REPLACING`` pair; ``mode``: ``word``, ``partial``, ``leading`` or ``trailing``."""

    old: str
    new: str
    mode: str


COPY_START = re.compile(r"(?<![A-Za-z0-9-])COPY\s+", re.IGNORECASE)
_OPERAND = re.compile(r"==(.*?)==|'[^']*'|\"[^\"]*\"|[^\s.]+(?:\.[^\s.]+)*", re.DOTALL)


def statement_end(text: str) -> int | None:
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


def parse_copy(statement: str) -> tuple[str, tuple[Replacement, ...]]:
    """The copybook name and ``REPLACING`` pairs of a ``COPY`` statement."""
    body = COPY_START.sub("", statement, count=1).rstrip().rstrip(".")
    head = body.split(None, 1)
    name = head[0].strip("'\"").upper() if head else ""
    name = name.rsplit("/", 1)[-1].split(".", 1)[0]
    replacing: tuple[Replacement, ...] = ()
    match = re.search(r"(?<![A-Za-z0-9-])REPLACING\s+", body, re.IGNORECASE)
    if match:
        replacing = parse_replacing(body[match.end() :])
    return name, replacing


_REPLACE_OFF = re.compile(r"^REPLACE\s+OFF\s*\.?$", re.IGNORECASE)


def parse_replace(statement: str) -> tuple[Replacement, ...]:
    """The pairs of a ``REPLACE`` statement (none for ``REPLACE OFF``)."""
    body = statement.strip()
    if _REPLACE_OFF.match(body):
        return ()
    body = re.sub(r"^REPLACE\s+", "", body, flags=re.IGNORECASE).rstrip().rstrip(".")
    return parse_replacing(body)
