"""Parsers per document type, chosen by file extension (or media type when it has none)."""

from __future__ import annotations

from pathlib import PurePath

from vigia.errors import Invalid, UnsupportedMedia
from vigia.knowledge.parsers.base import Block, ParsedDocument, storable
from vigia.knowledge.parsers.docx import parse_docx
from vigia.knowledge.parsers.html import check_html_size, parse_html
from vigia.knowledge.parsers.markdown import parse_markdown
from vigia.knowledge.parsers.pdf import parse_pdf
from vigia.knowledge.parsers.text import parse_text
from vigia.knowledge.parsers.zip_bounds import check_zip_bounds

__all__ = ["Block", "ParsedDocument", "check_size_caps", "document_kind", "parse_document"]

KINDS_BY_EXTENSION = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
}
KINDS_BY_MEDIA_TYPE = {
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "text/html": "html",
    "application/xhtml+xml": "html",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
    "text/plain": "text",
}
SUPPORTED = "PDF, DOCX, HTML, Markdown or plain text (.pdf .docx .html .htm .md .txt)"


def document_kind(name: str, media_type: str | None = None) -> str:
    """``pdf``, ``docx``, ``html``, ``markdown`` or ``text``; 415 for anything else."""
    suffix = PurePath(name).suffix.lower()
    if suffix in KINDS_BY_EXTENSION:
        return KINDS_BY_EXTENSION[suffix]
    base = (media_type or "").split(";")[0].strip().lower()
    if not suffix and base in KINDS_BY_MEDIA_TYPE:
        return KINDS_BY_MEDIA_TYPE[base]
    raise UnsupportedMedia(f"unsupported document type '{suffix or base or name}': use {SUPPORTED}")


def decode_text(data: bytes) -> str:
    """Text of a text-like upload: UTF-8 (with or without BOM), else Windows-1252."""
    if b"\x00" in data[:8192]:
        raise Invalid("this file looks binary, not text", code="unreadable_document")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def check_size_caps(kind: str, data: bytes) -> None:
    """The parsers' size caps that need no parsing (413): what a DOCX expands to, an HTML
    page's text; 422 for a DOCX that is no readable ZIP. For uploads parsed later."""
    if kind == "docx":
        check_zip_bounds(data, "DOCX")
    elif kind == "html":
        check_html_size(decode_text(data))


def parse_document(name: str, data: bytes, media_type: str | None = None) -> ParsedDocument:
    """The document's blocks; 415 for unsupported types, 422 for unreadable files."""
    kind = document_kind(name, media_type)
    if kind == "pdf":
        parsed = parse_pdf(data)
    elif kind == "docx":
        parsed = parse_docx(data)
    elif kind == "html":
        parsed = parse_html(decode_text(data))
    elif kind == "markdown":
        parsed = parse_markdown(decode_text(data))
    else:
        parsed = parse_text(decode_text(data))
    parsed = _storable(parsed)
    if not parsed.blocks:
        raise Invalid(
            "no text could be extracted from this document (a scanned PDF needs OCR first)",
            code="empty_document",
        )
    return _without_title_heading(parsed)


def _storable(parsed: ParsedDocument) -> ParsedDocument:
    """Every text the parser extracted (blocks, headings, title, address) without what no
    database can store (NUL, lone surrogates); blocks left empty are dropped."""
    parsed.blocks = [
        Block(text, b.page, tuple(storable(h) for h in b.headings))
        for b in parsed.blocks
        if (text := storable(b.text).strip())
    ]
    parsed.title = (storable(parsed.title).strip() or None) if parsed.title else None
    parsed.url = storable(parsed.url) if parsed.url else None
    return parsed


def _without_title_heading(parsed: ParsedDocument) -> ParsedDocument:
    """Drops a top heading every block sits under (the document's title, e.g. a lone h1).

    It tells no passage from another, and the citation already names the document.
    """
    firsts = {b.headings[0] if b.headings else None for b in parsed.blocks}
    if len(firsts) != 1 or None in firsts or all(len(b.headings) < 2 for b in parsed.blocks):
        return parsed
    title = parsed.blocks[0].headings[0]
    parsed.title = parsed.title or title
    parsed.blocks = [Block(b.text, b.page, b.headings[1:]) for b in parsed.blocks]
    return parsed
