"""DOCX: paragraphs and tables in order with python-docx; headings from paragraph styles.

"Heading N" / "Título N" styles open level N; a short paragraph set entirely in bold (the
usual FAQ question) opens a heading one level below the last styled heading; paragraphs shaped
like clauses (``Cláusula 4. …``) are recognised as in plain text.
"""

from __future__ import annotations

import io
import re
import zipfile

import docx
from docx.document import Document as DocxDocument
from docx.table import Table
from docx.text.paragraph import Paragraph

from vigia.errors import Invalid
from vigia.knowledge.parsers.base import Block, HeadingStack, ParsedDocument, clean
from vigia.knowledge.parsers.headings import line_heading, shape_heading
from vigia.knowledge.parsers.zip_bounds import check_zip_bounds

_STYLE = re.compile(r"^(?:heading|t[íi]tulo|encabezado|cabe[çc]alho)\s*(\d)$", re.IGNORECASE)
MAX_BOLD_HEADING_CHARS = 160


def _style_level(paragraph: Paragraph) -> int | None:
    name = paragraph.style.name if paragraph.style is not None else ""
    match = _STYLE.match((name or "").strip())
    return int(match.group(1)) if match else None


def _all_bold(paragraph: Paragraph) -> bool:
    runs = [r for r in paragraph.runs if r.text.strip()]
    return bool(runs) and all(r.bold for r in runs)


def _items(document: DocxDocument) -> list[Paragraph | Table]:
    items: list[Paragraph | Table] = []
    for child in document.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            items.append(Paragraph(child, document))
        elif tag == "tbl":
            items.append(Table(child, document))
    return items


def parse_docx(data: bytes) -> ParsedDocument:
    """Blocks in reading order with their open headings (DOCX has no reliable pages)."""
    check_zip_bounds(data, "DOCX")  # python-docx reads every part into memory
    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise Invalid("this file is not a readable DOCX", code="unreadable_document") from error
    except Exception as error:  # python-docx raises its own errors for odd packages
        raise Invalid("this file is not a readable DOCX", code="unreadable_document") from error
    parsed = ParsedDocument(
        media_type="application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    )
    parsed.title = clean(document.core_properties.title or "") or None
    stack = HeadingStack()
    styled_level = 0
    for item in _items(document):
        if isinstance(item, Table):
            for row in item.rows:
                cells = list(dict.fromkeys(clean(c.text) for c in row.cells))
                text = " | ".join(c for c in cells if c)
                if text:
                    parsed.blocks.append(Block(text, None, stack.path))
            continue
        text = clean(item.text)
        if not text:
            continue
        style = (item.style.name if item.style is not None else "") or ""
        level = _style_level(item)
        if level is not None:
            stack.push(level, shape_heading(text))
            styled_level = level
        elif style.lower() == "title":
            parsed.title = parsed.title or text
        elif (shaped := line_heading(text)) is not None and not text.endswith("."):
            stack.push(*shaped)
        elif _all_bold(item) and len(text) <= MAX_BOLD_HEADING_CHARS:
            stack.push(styled_level + 1, text)
        else:
            parsed.blocks.append(Block(text, None, stack.path))
    return parsed
