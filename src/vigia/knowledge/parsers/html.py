"""HTML: a real parser (BeautifulSoup with lxml); h1–h6 open headings, leaf blocks are text.

Scripts, styles, navigation, headers, footers and forms are dropped. The page's own address
(``<link rel="canonical">`` or ``og:url``) becomes the source URL unless one was given.
"""

from __future__ import annotations

from bs4 import BeautifulSoup, Tag

from vigia.knowledge.parsers.base import Block, HeadingStack, ParsedDocument, clean
from vigia.knowledge.parsers.headings import shape_heading

_DROP = [
    "script",
    "style",
    "noscript",
    "nav",
    "footer",
    "header",
    "aside",
    "form",
    "template",
    "svg",
]
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCKS = _HEADINGS | {
    "p",
    "li",
    "pre",
    "blockquote",
    "td",
    "th",
    "dd",
    "dt",
    "figcaption",
    "caption",
    "div",
    "section",
    "article",
    "main",
    "address",
    "summary",
}


def _source_url(soup: BeautifulSoup) -> str | None:
    link = soup.find("link", rel="canonical")
    if isinstance(link, Tag) and link.get("href"):
        return str(link["href"])[:2000]
    meta = soup.find("meta", property="og:url")
    if isinstance(meta, Tag) and meta.get("content"):
        return str(meta["content"])[:2000]
    return None


def parse_html(text: str) -> ParsedDocument:
    """Blocks in reading order with their open headings."""
    soup = BeautifulSoup(text, "lxml")
    parsed = ParsedDocument(media_type="text/html", url=_source_url(soup))
    if soup.title and soup.title.string:
        parsed.title = clean(soup.title.string) or None
    for tag in soup.find_all(_DROP):
        tag.decompose()
    root = soup.body or soup
    stack = HeadingStack()
    for element in root.find_all(_BLOCKS):
        if element.name not in _HEADINGS and element.find(_BLOCKS):
            continue  # not a leaf: its inner blocks carry the text
        content = clean(element.get_text(" "))
        if not content:
            continue
        if element.name in _HEADINGS:
            stack.push(int(element.name[1]), shape_heading(content))
        else:
            parsed.blocks.append(Block(content, None, stack.path))
    return parsed
