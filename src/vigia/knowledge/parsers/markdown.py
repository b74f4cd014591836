"""Markdown: parsed with markdown-it-py; ``#`` headings open levels, blocks keep plain text."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token

from vigia.knowledge.parsers.base import Block, HeadingStack, ParsedDocument, clean
from vigia.knowledge.parsers.headings import shape_heading

_PARSER = MarkdownIt("commonmark").enable("table")
_TEXT_CHILDREN = {"text", "code_inline", "html_inline"}


def _plain(token: Token) -> str:
    """The visible text of an inline token (emphasis, links and images reduced to words)."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in _TEXT_CHILDREN:
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(child.content)
    return clean("".join(parts))


def parse_markdown(text: str) -> ParsedDocument:
    """Blocks in reading order with their open headings; table rows become one block each."""
    parsed = ParsedDocument(media_type="text/markdown")
    stack = HeadingStack()
    tokens = _PARSER.parse(text)
    heading_level: int | None = None
    row: list[str] | None = None
    for token in tokens:
        if token.type == "heading_open":
            heading_level = int(token.tag[1])
        elif token.type == "heading_close":
            heading_level = None
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close" and row is not None:
            if any(row):
                parsed.blocks.append(Block(" | ".join(c for c in row if c), None, stack.path))
            row = None
        elif token.type == "inline":
            content = _plain(token)
            if heading_level is not None:
                if content:
                    stack.push(heading_level, shape_heading(content))
                    if heading_level == 1 and parsed.title is None:
                        parsed.title = content
            elif row is not None:
                row.append(content)
            elif content:
                parsed.blocks.append(Block(content, None, stack.path))
        elif token.type in ("fence", "code_block"):
            content = token.content.strip()
            if content:
                parsed.blocks.append(Block(content, None, stack.path))
    return parsed
