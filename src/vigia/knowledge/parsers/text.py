"""Plain text: paragraphs split at blank lines; heading-shaped lines open headings."""

from __future__ import annotations

from vigia.knowledge.parsers.base import Block, HeadingStack, ParsedDocument, clean
from vigia.knowledge.parsers.headings import line_heading


def parse_text(text: str) -> ParsedDocument:
    """Blocks in reading order with their open headings."""
    parsed = ParsedDocument(media_type="text/plain")
    stack = HeadingStack()
    paragraph: list[str] = []

    def flush() -> None:
        content = clean(" ".join(paragraph))
        paragraph.clear()
        if content:
            parsed.blocks.append(Block(content, None, stack.path))

    for line in text.splitlines():
        if not line.strip():
            flush()
            continue
        found = line_heading(line)
        if found is not None and not paragraph:
            stack.push(*found)
            continue
        paragraph.append(line.strip())
    flush()
    return parsed
