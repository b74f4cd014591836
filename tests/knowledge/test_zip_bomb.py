"""A DOCX that expands far past its size is refused before python-docx reads it, in bounded
memory; a DOCX lying about its sizes is refused as unreadable."""

from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.knowledge.documents import faq_docx
from tests.knowledge.helpers import stored_counts
from vigia.errors import Invalid, TooLarge
from vigia.knowledge.parsers import parse_document
from vigia.knowledge.parsers.zip_bounds import MAX_MEMBER_BYTES, MAX_TOTAL_BYTES, check_zip_bounds

MIB = 1024 * 1024
DOCUMENT = "word/document.xml"
TOO_LARGE = (
    "this DOCX expands to more than 128 MiB (or one part to more than 64 MiB); it is refused unread"
)


def docx_with(zeros: dict[str, int]) -> bytes:
    """A real DOCX whose members named in ``zeros`` hold that many zero bytes instead."""
    source = zipfile.ZipFile(io.BytesIO(faq_docx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for info in source.infolist():
            if info.filename not in zeros:
                archive.writestr(info, source.read(info))
        block = bytes(MIB)
        for name, size in zeros.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as member:
                for _ in range(size // MIB):
                    member.write(block)
    return out.getvalue()


def declaring(data: bytes, name: str, size: int) -> bytes:
    """``data`` with member ``name``'s uncompressed size rewritten to ``size`` (a lie)."""
    patched = bytearray(data)
    encoded = name.encode()
    for signature, offset, name_at in ((b"PK\x01\x02", 24, 46), (b"PK\x03\x04", 22, 30)):
        start = 0
        while (start := patched.find(signature, start)) != -1:
            if patched[start + name_at : start + name_at + len(encoded)] == encoded:
                struct.pack_into("<I", patched, start + offset, size)
            start += 4
    return bytes(patched)


def test_a_bomb_is_refused_on_its_declared_size() -> None:
    bomb = docx_with({DOCUMENT: MAX_MEMBER_BYTES + MIB})
    assert len(bomb) < MIB, "a small upload"
    with pytest.raises(TooLarge) as refused:
        parse_document("bomba.docx", bomb)
    assert refused.value.detail == TOO_LARGE


def test_parts_under_the_member_cap_still_count_toward_the_total() -> None:
    third = MAX_TOTAL_BYTES // 3 + MIB
    bomb = docx_with({"word/media/a.bin": third, "word/media/b.bin": third, DOCUMENT: third})
    with pytest.raises(TooLarge) as refused:
        parse_document("bomba.docx", bomb)
    assert refused.value.detail == TOO_LARGE


def test_a_member_lying_about_its_size_is_unreadable_and_costs_no_memory() -> None:
    honest = docx_with({DOCUMENT: 50 * MIB})
    liar = declaring(honest, DOCUMENT, 1000)
    tracemalloc.start()
    try:
        with pytest.raises(Invalid) as refused:
            check_zip_bounds(liar, "DOCX")  # before python-docx is handed anything
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.detail == "this file is not a readable DOCX"
    assert refused.value.status == 422
    assert peak < 8 * MIB, f"peak {peak / MIB:.1f} MiB"


def test_a_normal_docx_still_parses() -> None:
    parsed = parse_document("faq.docx", faq_docx())
    assert any("grúa" in block.text for block in parsed.blocks)


def test_the_upload_answers_413_and_stores_nothing(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    base = f"/admin/workspaces/{tenant.workspace_name}/knowledge-bases"
    kb = client.post(base, json={"name": "Pólizas"}, headers=admin_headers).json()["id"]
    bomb = docx_with({DOCUMENT: MAX_MEMBER_BYTES + MIB})
    response = client.post(
        f"{base}/{kb}/documents",
        files={"file": ("bomba.docx", bomb, "application/octet-stream")},
        headers=admin_headers,
    )
    assert response.status_code == 413
    assert response.json() == {"detail": TOO_LARGE}
    assert stored_counts()["documents"] == 0
