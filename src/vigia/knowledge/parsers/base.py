"""What every parser produces: text blocks, each with its page and heading path."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

HEADING_JOIN = " · "
_SPACES = re.compile(r"\s+")
# NUL and the other control characters that are not whitespace, and the soft hyphen.
_DROPPED = re.compile(r"[\x00-\x08\x0e-\x1b\x7f\u00ad]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def storable(text: str) -> str:
    """``text`` without NUL and the other control characters that are not whitespace (and
    soft hyphens), lone surrogates replaced with U+FFFD: neither can be stored (PostgreSQL
    refuses NUL in text, no database encodes a lone surrogate)."""
    return _SURROGATES.sub("\ufffd", _DROPPED.sub("", text))


def clean(text: str) -> str:
    """Collapses whitespace (including non-breaking spaces) into single spaces, storable."""
    return _SPACES.sub(" ", storable(text)).strip()


@dataclass(frozen=True)
class Block:
    """A paragraph-like piece of text and where it sits in the document."""

    text: str
    page: int | None = None
    headings: tuple[str, ...] = ()

    @property
    def heading(self) -> str | None:
        """The nested headings joined with `` · ``, e.g. ``Cláusula 4 · Cobertura todo riesgo``."""
        return HEADING_JOIN.join(self.headings) or None


@dataclass
class ParsedDocument:
    """A document's blocks in reading order, with what the source says about itself."""

    media_type: str
    blocks: list[Block] = field(default_factory=list)
    pages: int | None = None
    url: str | None = None
    title: str | None = None


class HeadingStack:
    """The open headings at each level; a new heading closes those at its level and below."""

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []

    def push(self, level: int, title: str) -> None:
        self._open = [(lvl, t) for lvl, t in self._open if lvl < level]
        self._open.append((level, title))

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(t for _, t in self._open)
