"""An upload checked and parsed, before anything is embedded or written: the checks that
need no parsing (name, type, size, url) and the parse into chunks, with their caps."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from vigia.errors import Invalid, TooLarge
from vigia.kit.fields import has_control_characters
from vigia.knowledge.chunking import Chunk, chunk_blocks
from vigia.knowledge.parsers import ParsedDocument, document_kind, parse_document

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
MAX_NAME_CHARS = 255
MAX_URL_CHARS = 2000
MAX_CHUNKS_PER_DOCUMENT = 20_000


def document_name(name: str) -> str:
    """The file name of an upload (any client-side folders dropped), checked."""
    base = PurePath(name.replace("\\", "/")).name.strip()
    if not base:
        raise Invalid("the document needs a file name")
    if len(base) > MAX_NAME_CHARS:
        raise Invalid(f"document names may have at most {MAX_NAME_CHARS} characters")
    if has_control_characters(base):
        raise Invalid("document names must not contain control characters (newline, tab…)")
    return base


def _checked_url(url: str | None) -> str | None:
    if url is None or not url.strip():
        return None
    url = url.strip()
    if (
        len(url) > MAX_URL_CHARS
        or not url.lower().startswith(("http://", "https://"))
        or has_control_characters(url)
    ):
        raise Invalid(f"url must be an http(s) address of at most {MAX_URL_CHARS} characters")
    return url


@dataclass(frozen=True)
class Checked:
    """An upload whose name, type, size and url passed the checks (nothing parsed yet)."""

    name: str
    data: bytes
    media_type: str | None
    url: str | None
    kind: str


@dataclass(frozen=True)
class Prepared:
    """An upload parsed and cut into chunks, not embedded yet."""

    parsed: ParsedDocument
    chunks: list[Chunk]

    def texts(self) -> list[str]:
        """What is embedded and indexed of each chunk."""
        return [c.indexed_text(self.parsed.title) for c in self.chunks]


def check_upload(name: str, data: bytes, media_type: str | None, url: str | None) -> Checked:
    """The checks that need no parsing: name, type (415), size (413), url."""
    name = document_name(name)
    kind = document_kind(name, media_type)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise TooLarge(f"documents may be at most {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")
    return Checked(name, data, media_type, _checked_url(url), kind)


def prepare(upload: Checked) -> Prepared:
    """Parses and chunks the upload: 422 for an unreadable file, 413 past the chunk cap."""
    parsed = parse_document(upload.name, upload.data, upload.media_type)
    chunks = chunk_blocks(parsed.blocks)
    if len(chunks) > MAX_CHUNKS_PER_DOCUMENT:
        raise TooLarge(f"a document may give at most {MAX_CHUNKS_PER_DOCUMENT} chunks")
    return Prepared(parsed, chunks)
