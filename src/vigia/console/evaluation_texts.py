"""The console's texts of the evaluation pages (the cases, one case's page, a run), in Spanish
and English (merged into the catalogue)."""

from __future__ import annotations

EVALUATION_TEXTS: dict[str, tuple[str, str]] = {
    "evaluation.cases": ("Casos de prueba", "Test cases"),
    "evaluation.name": ("Nombre", "Name"),
    "evaluation.input": ("Entrada", "Input"),
    "evaluation.assertions": ("Condiciones", "Assertions"),
    "evaluation.none": ("Este agente no tiene casos.", "This agent has no cases."),
    "evaluation.export": ("Exportar a Promptfoo", "Export to Promptfoo"),
    "evaluation.run": ("Ejecutar los casos", "Run the cases"),
    "evaluation.last_run": ("Última ejecución", "Last run"),
    "evaluation.passed": ("pasan", "pass"),
    "evaluation.failed": ("fallan", "fail"),
    "evaluation.result": ("Resultado", "Result"),
    "evaluation.reply": ("Respuesta", "Reply"),
    "evaluation.pass": ("pasa", "pass"),
    "evaluation.fail": ("falla", "fail"),
    "evaluation.new": ("Nuevo caso", "New case"),
    "evaluation.contains": ("La respuesta contiene", "The reply contains"),
    "evaluation.status": ("Estado esperado", "Expected status"),
    "evaluation.cites": ("Cita una fuente", "Cites a source"),
    "evaluation.add": ("Agregar", "Add"),
    "evaluation.one_per_line": ("una por línea", "one per line"),
    "evaluation.messages": ("mensajes", "messages"),
    "evaluation.saved": ("Caso guardado:", "Case saved:"),
    "evaluation.deleted": ("Caso borrado:", "Case deleted:"),
    # one case's page
    "evaluation.case": ("Caso", "Case"),
    "evaluation.edit": ("Editar el caso", "Edit the case"),
    "evaluation.kept": (
        "Este caso tiene además lo que sigue, que el formulario no muestra: se conserva tal "
        "cual al guardar (se cambia con la API de administración).",
        "This case also has what follows, which the form does not show: saving keeps it as "
        "it is (the admin API changes it).",
    ),
    "evaluation.save": ("Guardar", "Save"),
    "evaluation.delete": ("Borrar el caso", "Delete the case"),
    "evaluation.delete_check": ("Sí, borrar este caso", "Yes, delete this case"),
    "evaluation.confirm_delete": (
        "¿Borrar este caso de prueba? No se puede deshacer.",
        "Delete this test case? It cannot be undone.",
    ),
    "evaluation.delete_unconfirmed": (
        "Marcá la casilla para confirmar el borrado.",
        "Check the box to confirm the deletion.",
    ),
}
