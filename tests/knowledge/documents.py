"""Documents written for the tests: a Spanish car-insurance policy (PDF), a FAQ (DOCX), an
HTML help page, Markdown and text. Built in memory with fpdf2 and python-docx."""

from __future__ import annotations

import io

import docx
from fpdf import FPDF
from fpdf.enums import EncryptionMethod

POLICY_PAGES: list[list[tuple[str, str]]] = [
    [
        ("title", "CONDICIONES GENERALES DEL SEGURO AUTOMOTOR"),
        ("h", "Cláusula 1. Objeto del seguro"),
        (
            "p",
            "El Asegurador se obliga a mantener indemne al Asegurado por los daños al vehículo "
            "descripto en el frente de póliza, dentro de los límites y condiciones pactados.",
        ),
        ("h", "Cláusula 2. Vigencia"),
        (
            "p",
            "La cobertura comienza a las doce horas del día de inicio indicado en el frente de "
            "póliza y termina a las doce horas del día de vencimiento.",
        ),
    ],
    [
        ("h", "Cláusula 3. Responsabilidad civil"),
        (
            "p",
            "El Asegurador cubre la responsabilidad civil del Asegurado frente a terceros "
            "transportados y no transportados hasta la suma asegurada.",
        ),
        ("h", "Cláusula 4. Cobertura todo riesgo"),
        (
            "p",
            "El Asegurador indemnizará los daños materiales que sufra el vehículo asegurado por "
            "accidente, incendio o robo, con deducción de la franquicia pactada.",
        ),
        (
            "p",
            "La franquicia es el monto fijo que queda a cargo del Asegurado en cada siniestro "
            "de daños parciales.",
        ),
    ],
    [
        ("h", "Cláusula 5. Granizo"),
        (
            "p",
            "Los daños causados por granizo al vehículo están cubiertos sin franquicia cuando "
            "el vehículo se encuentra en un garaje cerrado.",
        ),
        ("h", "Cláusula 6. Denuncia del siniestro"),
        (
            "p",
            "El Asegurado debe denunciar el siniestro dentro de los tres días hábiles de "
            "ocurrido, por teléfono al 0800-555-0199 o desde la aplicación.",
        ),
    ],
    [
        ("h", "Cláusula 7. Exclusiones"),
        (
            "p",
            "No están cubiertos los daños producidos mientras el vehículo sea conducido por una "
            "persona sin licencia de conducir habilitante o bajo los efectos del alcohol.",
        ),
    ],
]


def policy_pdf(
    pages: list[list[tuple[str, str]]] | None = None,
    *,
    password: str | None = None,
    method: EncryptionMethod = EncryptionMethod.RC4,
) -> bytes:
    """A multi-page policy: clauses as bold lines, paragraphs as wrapped text; encrypted with
    ``method`` when a ``password`` is given (``""``: opens without one, as "no copying")."""
    pdf = FPDF()
    if password is not None:
        pdf.set_encryption(
            owner_password="owner-" + password, user_password=password, encryption_method=method
        )
    for page in pages or POLICY_PAGES:
        pdf.add_page()
        for kind, text in page:
            if kind == "p":
                pdf.set_font("helvetica", size=11)
                pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(4)
            else:
                pdf.set_font("helvetica", "B", 16 if kind == "title" else 13)
                pdf.multi_cell(0, 8, text, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def faq_docx() -> bytes:
    """A FAQ: "Heading 1" sections, questions in bold, one table."""
    document = docx.Document()
    document.add_heading("Preguntas frecuentes", level=0)
    document.add_heading("Pagos", level=1)
    question = document.add_paragraph()
    question.add_run("¿Cómo pago la cuota?").bold = True
    document.add_paragraph(
        "Podés pagar la cuota con tarjeta de crédito, débito automático o transferencia."
    )
    document.add_heading("Asistencia", level=1)
    question = document.add_paragraph()
    question.add_run("¿Hasta dónde llega la grúa?").bold = True
    document.add_paragraph("El servicio de grúa cubre hasta 300 kilómetros por evento.")
    document.add_heading("Teléfonos", level=2)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "Asistencia mecánica"
    table.cell(0, 1).text = "0800-555-0100"
    table.cell(1, 0).text = "Denuncias"
    table.cell(1, 1).text = "0800-555-0199"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


HELP_HTML = """<!doctype html>
<html><head><title>Ayuda</title>
<link rel="canonical" href="https://seguros.example/ayuda">
<script>var tracking = "no indexar";</script><style>p { color: red }</style></head>
<body><nav><a href="/">Inicio</a> menú principal</nav>
<h1>Centro de ayuda</h1>
<h2>Reintegros</h2>
<p>Para pedir un reintegro enviá la factura original y el formulario firmado.</p>
<ul><li>El reintegro se acredita en diez días hábiles.</li></ul>
<h2>Horarios</h2>
<div>Atendemos de lunes a viernes de 9 a 18 horas.</div>
<footer>Copyright seguros</footer>
</body></html>"""

NOTES_MD = """# Manual del asegurado

Texto de presentación.

## Cristales

Los cristales **laterales** y el parabrisas se reponen sin franquicia.

| Pieza | Plazo |
|---|---|
| Parabrisas | 48 horas |
"""
