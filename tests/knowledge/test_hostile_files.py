"""Uploaded files built to pin or crash a parser are refused in seconds, and text that no
database can store (NUL, lone surrogates) never reaches it; through the real upload route,
on SQLite and (with ``scripts/with-postgres``) on PostgreSQL.

The files are generated here: a 1.1 MB HTML of nested ``<div>`` elements, a 100 KB PDF
whose content stream nests arrays 50,000 deep (written by hand, byte by byte), and files
whose text holds NUL characters.
"""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant
from tests.knowledge.documents import NOTES_MD
from tests.knowledge.helpers import stored_counts
from vigia.db.session import session_scope
from vigia.knowledge.models import KnowledgeChunk, KnowledgeDocument
from vigia.knowledge.parsers import html

SECONDS = 5.0


def handmade_pdf(content: bytes, *, page_extra: bytes = b"") -> bytes:
    """A one-page PDF (Helvetica, WinAnsi) drawing ``content``, with a correct xref."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> " + page_extra + b">>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def nested_divs(size: int) -> bytes:
    depth = (size - 40) // 11
    return b"<html><body>" + b"<div>" * depth + b"hola" + b"</div>" * depth + b"</body></html>"


def nested_array_pdf() -> bytes:
    depth = 50_000
    return handmade_pdf(b"BT /F1 12 Tf 72 720 Td " + b"[" * depth + b"]" * depth + b" TJ ET")


@pytest.fixture
def kb_url(client: TestClient, admin_headers: dict[str, str], tenant: Tenant) -> str:
    response = client.post(
        f"/admin/workspaces/{tenant.workspace_id}/knowledge-bases",
        json={"name": "Pólizas"},
        headers=admin_headers,
    )
    assert response.status_code == 201, response.text
    return f"/admin/workspaces/{tenant.workspace_id}/knowledge-bases/{response.json()['id']}"


def upload(
    client: TestClient, headers: dict[str, str], kb_url: str, name: str, data: bytes
) -> tuple[int, dict[str, object], float]:
    started = time.perf_counter()
    response = client.post(
        f"{kb_url}/documents",
        files={"file": (name, data, "application/octet-stream")},
        headers=headers,
    )
    return response.status_code, response.json(), time.perf_counter() - started


def document_names(client: TestClient, headers: dict[str, str], kb_url: str) -> list[str]:
    response = client.get(f"{kb_url}/documents", headers=headers)
    assert response.status_code == 200, response.text
    return sorted(str(d["name"]) for d in response.json()["documents"])


@pytest.mark.parametrize(
    ("name", "data", "status", "why"),
    [
        (
            "anidado.html",
            nested_divs(1_100_000),
            422,
            f"this HTML nests elements more than {html.MAX_HTML_DEPTH} levels deep",
        ),
        ("anidado.pdf", nested_array_pdf(), 422, "page 1 of this PDF cannot be read"),
    ],
    ids=["html_nested_divs", "pdf_nested_arrays"],
)
def test_a_file_built_to_pin_or_crash_a_parser_is_refused_in_seconds(
    client: TestClient,
    admin_headers: dict[str, str],
    kb_url: str,
    name: str,
    data: bytes,
    status: int,
    why: str,
) -> None:
    assert len(data) >= 100_000
    upload(client, admin_headers, kb_url, "manual.md", NOTES_MD.encode())
    names, before = document_names(client, admin_headers, kb_url), stored_counts()
    got, body, seconds = upload(client, admin_headers, kb_url, name, data)
    assert (got, body) == (status, {"detail": why})
    assert seconds < SECONDS
    assert document_names(client, admin_headers, kb_url) == names == ["manual.md"]
    assert stored_counts() == before


def test_an_html_page_over_the_size_limit_is_413(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    data = b"<p>" + b"palabra " * (html.MAX_HTML_CHARS // 8) + b"</p>"
    got, body, seconds = upload(client, admin_headers, kb_url, "enorme.html", data)
    assert (got, body) == (413, {"detail": "an HTML page may have at most 4 MiB"})
    assert seconds < SECONDS and document_names(client, admin_headers, kb_url) == []


def test_an_ordinary_deep_page_still_parses(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    depth = html.MAX_HTML_DEPTH - 10
    page = "<html><body>" + "<div>" * depth + "<p>El granizo se cubre sin franquicia.</p>"
    page += "</div>" * depth + "<p>La grúa cubre 300 km.</p></body></html>"
    got, body, _ = upload(client, admin_headers, kb_url, "profunda.html", page.encode())
    assert got == 201, body
    with session_scope() as session:
        texts = list(session.scalars(select(KnowledgeChunk.text)))
    assert any("granizo" in t for t in texts) and any("grúa" in t for t in texts)


NUL_FILES = [
    ("nul.pdf", handmade_pdf(b"BT /F1 12 Tf 72 720 Td (El granizo\\000 se cubre\\000.) Tj ET")),
    ("nul.txt", b"x" * 9000 + b"\n\nEl granizo\x00 se cubre.\x00\n"),
    ("nul.md", b"y" * 9000 + b"\n\n## Gran\x00izo\n\nEl granizo\x00 se cubre.\n"),
    ("nul.html", b"<p>" + b"z" * 9000 + b"</p><h2>Gran\x00izo</h2><p>El granizo\x00 se cubre.</p>"),
]


@pytest.mark.parametrize(("name", "data"), NUL_FILES, ids=[n for n, _ in NUL_FILES])
def test_text_with_nul_characters_is_stored_without_them(
    client: TestClient, admin_headers: dict[str, str], kb_url: str, name: str, data: bytes
) -> None:
    got, body, _ = upload(client, admin_headers, kb_url, name, data)
    assert got == 201, body
    with session_scope() as session:
        chunks = list(session.scalars(select(KnowledgeChunk)))
        document = session.scalars(select(KnowledgeDocument)).one()
        stored = [c.text for c in chunks] + [c.heading or "" for c in chunks]
        stored.append(document.url or "")
    # Markdown and HTML parsers already read NUL as U+FFFD; PDF and plain text keep it.
    assert any("El granizo" in t and "se cubre." in t for t in stored)
    assert not any("\x00" in t for t in stored)
    search = client.post(f"{kb_url}/search", json={"query": "granizo"}, headers=admin_headers)
    assert search.status_code == 200 and "\\u0000" not in search.text
