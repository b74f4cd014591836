"""Recognises headings in plain lines (PDF text, plain text) by their shape.

- ``Capítulo II``, ``Título``, ``Sección``, ``Anexo`` (and Portuguese ``Seção``) open level 1;
- ``Cláusula 4. Cobertura todo riesgo``, ``Artículo 12``, ``Artigo 3`` open level 2, and are
  written as label and title joined by `` · ``: ``Cláusula 4 · Cobertura todo riesgo``;
- numbered headings ``4 Coberturas`` / ``4.1 Daños parciales`` open level 2 + depth;
- short lines in capitals (``CONDICIONES GENERALES``) open level 1.
"""

from __future__ import annotations

import re

from vigia.knowledge.parsers.base import HEADING_JOIN, clean

_NUMBER = (
    r"(?:\d{1,3}(?:\.\d{1,3})*|[IVXLC]{1,6}|[ivxlc]{1,6}|[A-Za-z]"
    r"|primera|segunda|tercera|única|unica)\b"
)
_SEP = r"\s*(?:[.:)\-–—·]\s*)?"
_LEVEL1 = re.compile(
    rf"^(?P<label>(?:t[íi]tulo|cap[íi]tulo|parte|secci[óo]n|se[çc][ãa]o|anexo)\s+{_NUMBER})"
    rf"(?:{_SEP}(?P<title>.*))?$",
    re.IGNORECASE,
)
_LEVEL2 = re.compile(
    rf"^(?P<label>(?:cl[áa]usula|art[íi]culo|artigo|apartado)\s+{_NUMBER})"
    rf"(?:{_SEP}(?P<title>.*))?$",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^(?P<number>\d{1,2}(?:\.\d{1,2}){0,3})[.)]?\s+(?P<title>\S.*)$")
MAX_HEADING_CHARS = 120


def _labelled(match: re.Match[str]) -> str:
    label = clean(match.group("label"))
    title = clean(match.group("title") or "").rstrip(".:")
    return f"{label}{HEADING_JOIN}{title}" if title else label


def line_heading(line: str) -> tuple[int, str] | None:
    """``(level, heading)`` when ``line`` looks like a heading, else None."""
    text = clean(line)
    if not text or len(text) > MAX_HEADING_CHARS or text.endswith((",", ";")):
        return None
    n_words = len(text.split())
    sentence_like = text.endswith(".") and n_words > 8
    for pattern, level in ((_LEVEL1, 1), (_LEVEL2, 2)):
        match = pattern.match(text)
        if match and not sentence_like:
            return level, _labelled(match)
    numbered = _NUMBERED.match(text)
    if (
        numbered
        and n_words <= 10
        and not text.endswith((".", ":"))
        and numbered.group("title")[0].isupper()
    ):
        return 2 + numbered.group("number").count("."), text
    letters = [c for c in text if c.isalpha()]
    capitals = len(letters) >= 4 and all(c.isupper() for c in letters)
    if capitals and n_words <= 12 and not text.endswith("."):
        return 1, text
    return None


def shape_heading(text: str) -> str:
    """An explicit heading (styled, ``#``, ``<h2>``) written like the recognised ones:
    ``Cláusula 4. Cobertura todo riesgo`` → ``Cláusula 4 · Cobertura todo riesgo``."""
    text = clean(text)
    for pattern in (_LEVEL1, _LEVEL2):
        match = pattern.match(text)
        if match:
            return _labelled(match)
    return text
