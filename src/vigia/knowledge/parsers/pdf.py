"""PDF: text per page with pypdf; headings from the outline (bookmarks) or the lines' shape.

A PDF whose objects nest too deep for the reader (arrays of arrays in a content stream, an
outline nested thousands of levels) is refused as unreadable (422), never a 500: pypdf
reads nested objects recursively, so running out of depth is one more way to be unreadable.
"""

from __future__ import annotations

import io
import re
from typing import Any

from pypdf import PdfReader
from pypdf.errors import DependencyError, PdfReadError, PyPdfError

from vigia.errors import Invalid
from vigia.knowledge.parsers.base import Block, HeadingStack, ParsedDocument, clean
from vigia.knowledge.parsers.headings import line_heading
from vigia.language import fold

MAX_PAGES = 2000
_END = (".", "!", "?", ":", "…")
_HYPHEN = re.compile(r"(\w)-$")
_UNREADABLE_PAGE = (
    PyPdfError,
    DependencyError,
    ValueError,
    KeyError,
    TypeError,
    OSError,
    RecursionError,
)


def _outline(reader: PdfReader) -> dict[int, list[tuple[int, str]]]:
    """Page index → (level, title) of the bookmarks pointing at it."""
    found: dict[int, list[tuple[int, str]]] = {}

    def walk(items: list[Any], level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except (PyPdfError, KeyError, ValueError, TypeError, AttributeError, RecursionError):
                continue
            title = clean(str(getattr(item, "title", "") or ""))
            if title and page is not None:
                found.setdefault(page, []).append((level, title))

    try:
        walk(list(reader.outline), 1)
    except (PyPdfError, KeyError, ValueError, TypeError, AttributeError, RecursionError):
        return {}
    return found


def _encrypted() -> Invalid:
    return Invalid(
        "this PDF is protected by a password: upload a copy without one",
        code="encrypted_document",
    )


def _open(data: bytes) -> PdfReader:
    """The reader; a PDF encrypted with an empty user password (RC4 or AES, the usual
    "restrict printing/copying" protection) is decrypted and read, one that needs a password
    to open is refused (422 ``encrypted_document``)."""
    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise Invalid("this file is not a readable PDF", code="unreadable_document")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (PyPdfError, DependencyError, NotImplementedError) as error:
                raise _encrypted() from error
            if not opened:
                raise _encrypted()
        _ = len(reader.pages)
    except Invalid:
        raise
    except (PdfReadError, *_UNREADABLE_PAGE) as error:
        raise Invalid("this file is not a readable PDF", code="unreadable_document") from error
    return reader


def parse_pdf(data: bytes) -> ParsedDocument:
    """Blocks with their 1-based page numbers and open headings."""
    reader = _open(data)
    if len(reader.pages) > MAX_PAGES:
        raise Invalid(f"a PDF may have at most {MAX_PAGES} pages", code="too_many_pages")
    outline = _outline(reader)
    stack = HeadingStack()
    parsed = ParsedDocument(media_type="application/pdf", pages=len(reader.pages))
    try:
        title = reader.metadata.title if reader.metadata else None
    except (PyPdfError, ValueError, KeyError, TypeError, RecursionError):
        title = None
    parsed.title = clean(str(title)) if title else None
    for index, page in enumerate(reader.pages):
        try:
            raw = page.extract_text() or ""
        except _UNREADABLE_PAGE as error:
            raise Invalid(
                f"page {index + 1} of this PDF cannot be read", code="unreadable_document"
            ) from error
        bookmarks = {fold(t): (lvl, t) for lvl, t in outline.get(index, [])}
        parsed.blocks += _page_blocks(raw.splitlines(), index + 1, stack, bookmarks)
    return parsed


def _page_blocks(
    lines: list[str], page: int, stack: HeadingStack, bookmarks: dict[str, tuple[int, str]]
) -> list[Block]:
    """One page's paragraphs; hard-wrapped lines are joined, hyphenated words mended."""
    blocks: list[Block] = []
    widest = max((len(line.strip()) for line in lines), default=0)
    paragraph: list[str] = []

    def flush() -> None:
        text = clean(" ".join(paragraph))
        paragraph.clear()
        if text:
            blocks.append(Block(text, page, stack.path))

    for line in lines:
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        marked = bookmarks.get(fold(clean(stripped)))
        found = line_heading(stripped) if marked is None else None
        if marked is not None:
            flush()
            shaped = line_heading(marked[1])
            stack.push(marked[0], shaped[1] if shaped else marked[1])
            continue
        if found is not None:
            flush()
            stack.push(*found)
            continue
        if paragraph and _HYPHEN.search(paragraph[-1]) and stripped[:1].islower():
            paragraph[-1] = paragraph[-1][:-1] + stripped
        else:
            paragraph.append(stripped)
        if stripped.endswith(_END) and len(stripped) < 0.75 * widest:
            flush()
    flush()
    return blocks
