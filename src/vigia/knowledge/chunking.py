"""Cuts a parsed document into chunks along headings and paragraphs.

Consecutive blocks under the same heading and on the same page are merged up to
``TARGET_CHARS``; a block longer than ``MAX_CHARS`` is cut between sentences (and a
sentence longer than that between words). A chunk never spans two headings or two pages,
so each citation can name both exactly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from vigia.knowledge.parsers.base import Block
from vigia.language import break_point, sentences

TARGET_CHARS = 700
MAX_CHARS = 1000


@dataclass(frozen=True)
class Chunk:
    """A piece of a document as it is indexed and cited."""

    text: str
    page: int | None
    heading: str | None

    def indexed_text(self, title: str | None = None) -> str:
        """What search sees: the document's title and the heading (they name the topic),
        then the text."""
        context = " · ".join(x for x in (title, self.heading) if x)
        return f"{context}\n{self.text}" if context else self.text


def _pieces(text: str) -> Iterator[str]:
    """``text`` cut into pieces of at most ``MAX_CHARS``, between sentences when possible."""
    if len(text) <= MAX_CHARS:
        yield text
        return
    current = ""
    for sentence in sentences(text):
        while len(sentence) > MAX_CHARS:
            cut = break_point(sentence, MAX_CHARS)
            if current:
                yield current
                current = ""
            yield sentence[:cut].strip()
            sentence = sentence[cut:].strip()
        if current and len(current) + 1 + len(sentence) > TARGET_CHARS:
            yield current
            current = ""
        current = f"{current} {sentence}".strip()
    if current:
        yield current


def chunk_blocks(blocks: list[Block]) -> list[Chunk]:
    """The chunks of a document, in reading order."""
    chunks: list[Chunk] = []
    current: list[str] = []
    where: tuple[int | None, str | None] | None = None

    def flush() -> None:
        if current and where is not None:
            chunks.append(Chunk(" ".join(current), where[0], where[1]))
        current.clear()

    for block in blocks:
        place = (block.page, block.heading)
        for piece in _pieces(block.text):
            size = sum(len(p) + 1 for p in current)
            if place != where or size + len(piece) > TARGET_CHARS:
                flush()
                where = place
            current.append(piece)
    flush()
    return chunks
