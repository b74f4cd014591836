"""Parsing and chunking: pages and headings per format, and clear errors for bad files."""

from __future__ import annotations

import pytest
from fpdf.enums import EncryptionMethod
from pypdf import PdfReader
from pypdf.errors import DependencyError

from tests.knowledge.documents import HELP_HTML, NOTES_MD, faq_docx, policy_pdf
from vigia.errors import Invalid, UnsupportedMedia
from vigia.knowledge.chunking import MAX_CHARS, chunk_blocks
from vigia.knowledge.parsers import Block, parse_document
from vigia.knowledge.parsers.headings import line_heading

CIPHERS = [EncryptionMethod.RC4, EncryptionMethod.AES_128, EncryptionMethod.AES_256]


def _find(blocks: list[Block], words: str) -> Block:
    return next(b for b in blocks if words in b.text)


def test_pdf_blocks_keep_their_page_and_clause_heading() -> None:
    parsed = parse_document("Condiciones generales auto.pdf", policy_pdf())
    assert parsed.pages == 4
    franquicia = _find(parsed.blocks, "monto fijo")
    assert franquicia.page == 2
    assert franquicia.heading == "Cláusula 4 · Cobertura todo riesgo"
    denuncia = _find(parsed.blocks, "tres días hábiles")
    assert (denuncia.page, denuncia.heading) == (3, "Cláusula 6 · Denuncia del siniestro")


def test_a_heading_over_the_whole_document_is_its_title_not_a_heading() -> None:
    parsed = parse_document("p.pdf", policy_pdf())
    assert parsed.title == "CONDICIONES GENERALES DEL SEGURO AUTOMOTOR"
    assert all("CONDICIONES" not in (b.heading or "") for b in parsed.blocks)


def test_pdf_wrapped_lines_join_into_one_paragraph() -> None:
    parsed = parse_document("p.pdf", policy_pdf())
    block = _find(parsed.blocks, "indemnizará los daños materiales")
    assert "robo, con deducción de la franquicia pactada." in block.text


@pytest.mark.parametrize("method", CIPHERS, ids=lambda m: m.name)
def test_pdf_that_needs_a_password_is_refused(method: EncryptionMethod) -> None:
    with pytest.raises(Invalid) as caught:
        parse_document("secreta.pdf", policy_pdf(password="clave-1234", method=method))
    assert (caught.value.status, caught.value.code) == (422, "encrypted_document")
    assert caught.value.detail == "this PDF is protected by a password: upload a copy without one"


@pytest.mark.parametrize("method", CIPHERS, ids=lambda m: m.name)
def test_pdf_encrypted_with_an_empty_password_is_read(method: EncryptionMethod) -> None:
    parsed = parse_document("sin-copia.pdf", policy_pdf(password="", method=method))
    assert parsed.pages == 4
    assert _find(parsed.blocks, "monto fijo").page == 2


def test_pdf_whose_cipher_cannot_be_loaded_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing_cipher(self: PdfReader, password: str) -> None:
        raise DependencyError("cryptography is required for AES algorithm")

    monkeypatch.setattr(PdfReader, "decrypt", missing_cipher)
    with pytest.raises(Invalid) as caught:
        parse_document("aes.pdf", policy_pdf(password="", method=EncryptionMethod.AES_256))
    assert (caught.value.status, caught.value.code) == (422, "encrypted_document")


def test_broken_pdf_is_refused() -> None:
    with pytest.raises(Invalid) as caught:
        parse_document("rota.pdf", policy_pdf()[:300])
    assert caught.value.status == 422 and caught.value.detail == "this file is not a readable PDF"
    with pytest.raises(Invalid):
        parse_document("falsa.pdf", b"esto no es un pdf")


def test_docx_headings_bold_questions_and_tables() -> None:
    parsed = parse_document("faq.docx", faq_docx())
    answer = _find(parsed.blocks, "transferencia")
    assert answer.heading == "Pagos · ¿Cómo pago la cuota?"
    grua = _find(parsed.blocks, "300 kilómetros")
    assert grua.heading == "Asistencia · ¿Hasta dónde llega la grúa?"
    phones = _find(parsed.blocks, "0800-555-0199")
    assert phones.text == "Denuncias | 0800-555-0199"
    assert phones.heading == "Asistencia · Teléfonos"
    assert parsed.title == "Preguntas frecuentes"


def test_html_headings_url_and_dropped_chrome() -> None:
    parsed = parse_document("ayuda.html", HELP_HTML.encode())
    assert parsed.url == "https://seguros.example/ayuda"
    texts = " ".join(b.text for b in parsed.blocks)
    assert "tracking" not in texts and "menú principal" not in texts and "Copyright" not in texts
    assert _find(parsed.blocks, "diez días").heading == "Reintegros"
    assert _find(parsed.blocks, "lunes a viernes").heading == "Horarios"


def test_markdown_headings_plain_text_and_tables() -> None:
    parsed = parse_document("manual.md", NOTES_MD.encode())
    cristales = _find(parsed.blocks, "parabrisas se reponen")
    assert cristales.heading == "Cristales"
    assert _find(parsed.blocks, "presentación").heading is None
    assert parsed.title == "Manual del asegurado"
    assert "**" not in cristales.text
    assert _find(parsed.blocks, "48 horas").text == "Parabrisas | 48 horas"


def test_plain_text_clause_lines_become_headings() -> None:
    text = (
        "Anexo de la póliza.\n\nCAPÍTULO II - Siniestros\n\n"
        "Cláusula 9: Plazos\nEl pago se hace en 15 días.\n"
    )
    parsed = parse_document("notas.txt", text.encode("cp1252"))
    assert parsed.blocks[1:] == [
        Block(
            "El pago se hace en 15 días.", None, ("CAPÍTULO II · Siniestros", "Cláusula 9 · Plazos")
        )
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Cláusula 4. Cobertura todo riesgo", (2, "Cláusula 4 · Cobertura todo riesgo")),
        ("ARTÍCULO 12 - EXCLUSIONES", (2, "ARTÍCULO 12 · EXCLUSIONES")),
        ("4.1 Daños parciales", (3, "4.1 Daños parciales")),
        ("El asegurado debe pagar la prima en término.", None),
        ("1. El asegurado debe pagar la prima en término.", None),
    ],
)
def test_heading_shapes(line: str, expected: tuple[int, str] | None) -> None:
    assert line_heading(line) == expected


def test_unsupported_type_is_415() -> None:
    with pytest.raises(UnsupportedMedia) as caught:
        parse_document("planilla.xlsx", b"PK\x03\x04")
    assert caught.value.status == 415
    assert caught.value.detail.startswith("unsupported document type '.xlsx'")


def test_document_without_text_is_422() -> None:
    with pytest.raises(Invalid):
        parse_document("vacio.txt", b"   \n\n  ")


def test_chunks_never_cross_headings_or_pages_and_respect_the_size_limit() -> None:
    long = " ".join(
        f"La oración número {i} describe una condición de la póliza." for i in range(80)
    )
    blocks = [
        Block("Primero.", 1, ("A",)),
        Block("Segundo.", 1, ("A",)),
        Block("Tercero.", 2, ("A",)),
        Block(long, 2, ("B",)),
    ]
    chunks = chunk_blocks(blocks)
    assert chunks[0].text == "Primero. Segundo." and chunks[0].page == 1
    assert chunks[1].text == "Tercero." and chunks[1].page == 2
    assert all(c.heading == "B" and len(c.text) <= MAX_CHARS for c in chunks[2:])
    assert len(chunks) > 3
    assert " ".join(c.text for c in chunks[2:]) == long
