"""Writes the demo's sample PDF (src/vigia/demo/knowledge/presupuesto-y-costos.pdf).

    .venv/bin/python scripts/demo_pdf.py

The PDF is shipped in the package; this script only regenerates it (needs fpdf2, a dev
dependency).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).resolve().parents[1] / "src/vigia/demo/knowledge/presupuesto-y-costos.pdf"
SECTIONS = [
    (
        "Costo de cada turno",
        "Vigia calcula el costo de cada turno con los tokens que usa el modelo y la tabla de "
        "precios por millón de tokens. El modelo embebido no tiene costo.",
    ),
    (
        "Presupuesto mensual",
        "Cada espacio de trabajo puede tener un presupuesto mensual en dólares. Cuando el gasto "
        "del mes alcanza el presupuesto, el espacio se pausa o solo emite una alerta, según la "
        "acción configurada.",
    ),
    (
        "Trazas",
        "Cada turno guarda una traza con sus etapas: presupuesto, guardrails de entrada, "
        "historial, búsqueda, generación, guardrails de salida y persistencia, cada una con su "
        "duración.",
    ),
]


def main() -> None:
    pdf = FPDF()
    pdf.set_title("Presupuesto y costos")
    pdf.set_creation_date(datetime(2026, 1, 1, tzinfo=UTC))
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "Presupuesto y costos", new_x="LMARGIN", new_y="NEXT")
    for title, body in SECTIONS:
        pdf.set_font("Helvetica", "B", 13)
        pdf.cell(0, 9, title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, body)
        pdf.ln(2)
    pdf.output(str(OUT))


if __name__ == "__main__":
    main()
