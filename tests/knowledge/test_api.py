"""The knowledge admin API: bases, uploads, replace, delete, errors and search."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from fpdf.enums import EncryptionMethod

from tests.conftest import Tenant
from tests.errors import assert_error
from tests.knowledge.documents import HELP_HTML, NOTES_MD, faq_docx, policy_pdf
from tests.knowledge.helpers import stored_counts
from vigia.http.unstorable import ERRORS
from vigia.knowledge import preparing, service

PDF = "application/pdf"


def _base(
    client: TestClient, headers: dict[str, str], workspace: str, name: str = "Pólizas"
) -> str:
    response = client.post(
        f"/admin/workspaces/{workspace}/knowledge-bases", json={"name": name}, headers=headers
    )
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def _upload(
    client: TestClient,
    headers: dict[str, str],
    kb_url: str,
    name: str,
    data: bytes,
    media_type: str = "application/octet-stream",
    **form: str,
) -> tuple[int, dict]:
    response = client.post(
        f"{kb_url}/documents", files={"file": (name, data, media_type)}, data=form, headers=headers
    )
    return response.status_code, response.json()


@pytest.fixture
def kb_url(client: TestClient, admin_headers: dict[str, str], tenant: Tenant) -> str:
    kb_id = _base(client, admin_headers, tenant.workspace_name)
    return f"/admin/workspaces/{tenant.workspace_name}/knowledge-bases/{kb_id}"


def test_routes_need_the_admin_token(client: TestClient, tenant: Tenant) -> None:
    response = client.get(f"/admin/workspaces/{tenant.workspace_id}/knowledge-bases")
    assert_error(response, 401, "admin token required")


def test_create_list_and_refuse_duplicate_names(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    kb_id = _base(client, admin_headers, tenant.workspace_id)
    listed = client.get(
        f"/admin/workspaces/{tenant.workspace_name}/knowledge-bases", headers=admin_headers
    ).json()["knowledge_bases"]
    assert [(kb["id"], kb["documents"], kb["embedder"]) for kb in listed] == [(kb_id, 0, "use")]
    again = client.post(
        f"/admin/workspaces/{tenant.workspace_id}/knowledge-bases",
        json={"name": "Pólizas"},
        headers=admin_headers,
    )
    assert_error(again, 409, "knowledge base 'Pólizas' already exists in this workspace")


def test_upload_every_format_and_read_chunks_back(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    files = [
        ("Condiciones generales auto.pdf", policy_pdf(), PDF),
        ("faq.docx", faq_docx(), "application/octet-stream"),
        ("ayuda.html", HELP_HTML.encode(), "text/html"),
        ("manual.md", NOTES_MD.encode(), "text/markdown"),
        ("notas.txt", "El taller oficial atiende sábados.".encode(), "text/plain"),
    ]
    for name, data, media_type in files:
        status, body = _upload(client, admin_headers, kb_url, name, data, media_type)
        assert status == 201, body
        assert body["chunks"] >= 1 and body["replaced"] is False
    docs = client.get(f"{kb_url}/documents", headers=admin_headers).json()["documents"]
    assert sorted(d["name"] for d in docs) == sorted(f[0] for f in files)
    pdf = next(d for d in docs if d["name"].endswith(".pdf"))
    assert pdf["pages"] == 4
    html = next(d for d in docs if d["name"] == "ayuda.html")
    assert html["url"] == "https://seguros.example/ayuda"
    detail = client.get(f"{kb_url}/documents/{pdf['id']}", headers=admin_headers).json()
    clause = next(c for c in detail["chunk_list"] if "monto fijo" in c["text"])
    assert (clause["page"], clause["heading"]) == (2, "Cláusula 4 · Cobertura todo riesgo")


def test_url_given_with_the_upload_is_kept(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    status, body = _upload(
        client,
        admin_headers,
        kb_url,
        "tarifas.md",
        b"# Tarifas\n\nPlan base.",
        url="https://x.example/t",
    )
    assert status == 201 and body["url"] == "https://x.example/t"
    status, body = _upload(client, admin_headers, kb_url, "t.md", b"texto", url="ftp://x")
    assert status == 422
    assert body == {"detail": "url must be an http(s) address of at most 2000 characters"}


def test_same_name_replaces_and_leaves_no_orphans(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    status, first = _upload(client, admin_headers, kb_url, "poliza.pdf", policy_pdf(), PDF)
    assert status == 201
    before = stored_counts()
    assert before["chunks"] == before["entries"] == before["fts"] == first["chunks"]
    short = policy_pdf([[("h", "Cláusula 1. Objeto"), ("p", "Texto nuevo y breve.")]])
    status, second = _upload(client, admin_headers, kb_url, "poliza.pdf", short, PDF)
    assert status == 200 and second["replaced"] is True and second["id"] == first["id"]
    after = stored_counts()
    assert after == {"documents": 1, "chunks": 1, "entries": 1, "fts": 1}
    search = client.post(
        f"{kb_url}/search", json={"query": "franquicia granizo"}, headers=admin_headers
    ).json()["passages"]
    assert [p["snippet"] for p in search] == ["Texto nuevo y breve."]


def test_delete_document_removes_all_its_chunks(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    _, doc = _upload(client, admin_headers, kb_url, "poliza.pdf", policy_pdf(), PDF)
    _upload(client, admin_headers, kb_url, "manual.md", NOTES_MD.encode())
    kept = stored_counts()
    assert (
        client.delete(f"{kb_url}/documents/{doc['id']}", headers=admin_headers).status_code == 204
    )
    left = stored_counts()
    gone = doc["chunks"]
    assert left == {
        "documents": 1,
        "chunks": kept["chunks"] - gone,
        "entries": kept["entries"] - gone,
        "fts": kept["fts"] - gone,
    }
    gone_doc = client.get(f"{kb_url}/documents/{doc['id']}", headers=admin_headers)
    assert_error(gone_doc, 404, f"document '{doc['id']}' not found")


def test_delete_knowledge_base_removes_everything(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    _upload(client, admin_headers, kb_url, "poliza.pdf", policy_pdf(), PDF)
    assert client.delete(kb_url, headers=admin_headers).status_code == 204
    assert stored_counts() == {"documents": 0, "chunks": 0, "entries": 0, "fts": 0}
    kb_id = kb_url.rsplit("/", 1)[1]
    assert_error(
        client.get(kb_url, headers=admin_headers), 404, f"knowledge base '{kb_id}' not found"
    )


@pytest.mark.parametrize(
    ("name", "data", "status", "why"),
    [
        ("planilla.xlsx", b"PK\x03\x04 hoja", 415, "unsupported document type '.xlsx'"),
        ("secreta.pdf", policy_pdf(password="clave-1234"), 422, "this PDF is protected"),
        (
            "aes.pdf",
            policy_pdf(password="clave-1234", method=EncryptionMethod.AES_256),
            422,
            "this PDF is protected",
        ),
        ("rota.pdf", b"%PDF-1.4 nada mas", 422, "this file is not a readable PDF"),
        ("falsa.docx", b"no es un zip", 422, "this file is not a readable DOCX"),
        ("vacio.md", b"\n\n", 422, "no text could be extracted from this document"),
    ],
)
def test_bad_files_are_refused_and_change_nothing(
    client: TestClient,
    admin_headers: dict[str, str],
    kb_url: str,
    name: str,
    data: bytes,
    status: int,
    why: str,
) -> None:
    _upload(client, admin_headers, kb_url, "manual.md", NOTES_MD.encode())
    before = stored_counts()
    got, body = _upload(client, admin_headers, kb_url, name, data)
    assert got == status, body
    assert set(body) == {"detail"} and body["detail"].startswith(why)
    assert stored_counts() == before


def test_control_characters_in_name_or_url_are_422(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    before = stored_counts()
    # Written by hand: clients escape a NUL in a multipart file name, a raw one gets through.
    raw = (
        b'--b\r\nContent-Disposition: form-data; name="file"; filename="a\x00b.md"\r\n'
        b"Content-Type: text/markdown\r\n\r\n# Hola\r\n--b--\r\n"
    )
    response = client.post(
        f"{kb_url}/documents",
        content=raw,
        headers={**admin_headers, "Content-Type": "multipart/form-data; boundary=b"},
    )
    assert response.status_code == 422
    # NUL is refused for every form before the route (vigia.http.form_text), naming the field.
    assert response.json()["detail"] == [
        {"loc": ["body", "file"], "msg": ERRORS["string_nul"], "type": "string_nul"}
    ]
    other = client.post(
        f"{kb_url}/documents",
        content=raw.replace(b"a\x00b.md", b"a\x01b.md"),
        headers={**admin_headers, "Content-Type": "multipart/form-data; boundary=b"},
    )
    assert other.status_code == 422
    assert other.json() == {
        "detail": "document names must not contain control characters (newline, tab…)"
    }
    status, body = _upload(
        client, admin_headers, kb_url, "notas.md", NOTES_MD.encode(), url="https://x.example/\x00"
    )
    assert status == 422 and body["detail"][0]["type"] == "string_nul"
    status, body = _upload(
        client, admin_headers, kb_url, "notas.md", NOTES_MD.encode(), url="https://x.example/\x01"
    )
    assert status == 422 and body["detail"].startswith("url must be an http(s) address")
    assert stored_counts() == before


def test_pdf_encrypted_with_an_empty_password_is_indexed(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    data = policy_pdf(password="", method=EncryptionMethod.AES_256)
    status, body = _upload(client, admin_headers, kb_url, "sin-copia.pdf", data, PDF)
    assert status == 201, body
    assert (body["pages"], body["media_type"]) == (4, PDF) and body["chunks"] > 0


def test_too_large_is_413(
    client: TestClient,
    admin_headers: dict[str, str],
    kb_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(service, "MAX_DOCUMENT_BYTES", 1000)  # the declared-size check
    monkeypatch.setattr(preparing, "MAX_DOCUMENT_BYTES", 1000)  # the bytes read
    status, body = _upload(client, admin_headers, kb_url, "largo.txt", b"palabra " * 200)
    assert status == 413 and body == {"detail": "documents may be at most 0 MiB"}
    big = b"x" * (1000 + 70 * 1024)
    status, body = _upload(client, admin_headers, kb_url, "enorme.txt", big)
    assert status == 413 and body == {"detail": "documents may be at most 0 MiB"}
    assert stored_counts()["documents"] == 0


def test_another_workspace_cannot_see_the_base(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    from tests.conftest import make_tenant

    other = make_tenant(name="otra", slug="otro")
    kb_id = kb_url.rsplit("/", 1)[1]
    url = f"/admin/workspaces/{other.workspace_name}/knowledge-bases/{kb_id}"
    missing = f"knowledge base '{kb_id}' not found"
    assert_error(client.get(url, headers=admin_headers), 404, missing)
    status, body = _upload(client, admin_headers, url, "manual.md", NOTES_MD.encode())
    assert status == 404 and body == {"detail": missing}


def test_search_returns_citation_shaped_passages(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    _upload(client, admin_headers, kb_url, "Condiciones generales auto.pdf", policy_pdf(), PDF)
    passages = client.post(
        f"{kb_url}/search",
        json={"query": "¿En qué plazo tengo que denunciar un siniestro?", "top_k": 3},
        headers=admin_headers,
    ).json()["passages"]
    best = passages[0]
    assert best["document"] == "Condiciones generales auto.pdf"
    assert (best["page"], best["heading"]) == (3, "Cláusula 6 · Denuncia del siniestro")
    assert 0 < best["score"] <= 1
    assert [p["n"] for p in passages] == [1, 2, 3]
