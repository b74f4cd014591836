"""HTML: a real parser (BeautifulSoup with lxml); h1–h6 open headings, leaf blocks are text.

Scripts, styles, navigation, headers, footers and forms are dropped. The page's own address
(``<link rel="canonical">`` or ``og:url``) becomes the source URL unless one was given.
Reading is linear in the page's size: the tree is walked once, iteratively, and a page of
more than ``MAX_HTML_CHARS`` characters (413) or with elements nested deeper than
``MAX_HTML_DEPTH`` (422 ``document_too_deep``) is refused before any text is read. The
depth is first measured by libxml2 itself (its HTML parser stops at 256 levels unless told
otherwise), which answers in milliseconds, before the slower tree is built.
"""

from __future__ import annotations

from bs4 import BeautifulSoup, Tag
from lxml import etree

from vigia.errors import Invalid, TooLarge
from vigia.knowledge.parsers.base import Block, HeadingStack, ParsedDocument, clean
from vigia.knowledge.parsers.headings import shape_heading

MAX_HTML_CHARS = 4 * 1024 * 1024
MAX_HTML_DEPTH = 256


def _too_deep() -> Invalid:
    return Invalid(
        f"this HTML nests elements more than {MAX_HTML_DEPTH} levels deep",
        code="document_too_deep",
    )


def _check_depth(text: str) -> None:
    """422 when libxml2's HTML parser (its depth limit on) gives up for excessive depth."""
    parser = etree.HTMLParser(huge_tree=False, encoding="utf-8")
    try:
        etree.fromstring(text.encode("utf-8", "replace"), parser)
    except etree.LxmlError:
        return  # not for this check to judge; the tree below reads what it can
    if any(error.type_name == "ERR_RESOURCE_LIMIT" for error in parser.error_log):
        raise _too_deep()


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


def _elements(root: Tag) -> list[Tag]:
    """Every element under ``root`` in document order (one iterative walk); 422 when they
    nest deeper than ``MAX_HTML_DEPTH`` (and a little room for the document's own root)."""
    order: list[Tag] = []
    stack = [(root, 0)]
    while stack:
        tag, depth = stack.pop()
        if depth > MAX_HTML_DEPTH + 2:
            raise _too_deep()
        order.append(tag)
        children = [child for child in tag.contents if isinstance(child, Tag)]
        stack.extend((child, depth + 1) for child in reversed(children))
    return order


def _leaf_blocks(root: Tag) -> list[Tag]:
    """The block elements under ``root`` holding no other block, in document order."""
    order = _elements(root)
    holding: set[int] = set()  # ids of elements with a block somewhere inside
    for tag in reversed(order):  # every element comes after all of its descendants
        if (tag.name in _BLOCKS or id(tag) in holding) and tag.parent is not None:
            holding.add(id(tag.parent))
    return [t for t in order[1:] if t.name in _BLOCKS and id(t) not in holding]


def check_html_size(text: str) -> None:
    """413 for a page past ``MAX_HTML_CHARS`` of text."""
    if len(text) > MAX_HTML_CHARS:
        raise TooLarge(f"an HTML page may have at most {MAX_HTML_CHARS // (1024 * 1024)} MiB")


def parse_html(text: str) -> ParsedDocument:
    """Blocks in reading order with their open headings."""
    check_html_size(text)
    _check_depth(text)
    soup = BeautifulSoup(text, "lxml")
    _elements(soup)
    parsed = ParsedDocument(media_type="text/html", url=_source_url(soup))
    if soup.title and soup.title.string:
        parsed.title = clean(soup.title.string) or None
    for tag in soup.find_all(_DROP):
        tag.decompose()
    root = soup.body or soup
    stack = HeadingStack()
    for element in _leaf_blocks(root):
        content = clean(element.get_text(" "))
        if not content:
            continue
        if element.name in _HEADINGS:
            stack.push(int(element.name[1]), shape_heading(content))
        else:
            parsed.blocks.append(Block(content, None, stack.path))
    return parsed
