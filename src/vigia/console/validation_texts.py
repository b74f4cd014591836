"""The console's texts for invalid input, in Spanish and English (merged into the catalogue):
one per kind of pydantic error, the domain refusals a form can meet, and upload failures.
``{name}`` placeholders are filled from the error's context (``vigia.console.field_errors``)."""

from __future__ import annotations

VALIDATION_TEXTS: dict[str, tuple[str, str]] = {
    "form.invalid": (
        "Hay datos para corregir: los campos marcados dicen qué. No se guardó nada.",
        "Some values need fixing: the marked fields say what. Nothing was saved.",
    ),
    "form.item": ("n.º {n}", "no. {n}"),
    # one text per pydantic error type (the ``invalid.`` + type; ``vigia.console.field_errors``)
    "invalid.missing": ("Falta completar este campo.", "This field is required."),
    "invalid.string_too_long": (
        "Como máximo {max_length} caracteres.",
        "At most {max_length} characters.",
    ),
    "invalid.string_too_short": ("No puede quedar vacío.", "It cannot be empty."),
    "invalid.too_long": ("Como máximo {max_length} elementos.", "At most {max_length} items."),
    "invalid.too_short": ("Elegí al menos {min_length}.", "Choose at least {min_length}."),
    "invalid.greater_than_equal": ("Tiene que ser {ge} o más.", "It must be {ge} or more."),
    "invalid.less_than_equal": ("Tiene que ser {le} o menos.", "It must be {le} or less."),
    "invalid.greater_than": ("Tiene que ser más que {gt}.", "It must be more than {gt}."),
    "invalid.less_than": ("Tiene que ser menos que {lt}.", "It must be less than {lt}."),
    "invalid.integer": ("Tiene que ser un número entero.", "It must be a whole number."),
    "invalid.number": ("Tiene que ser un número.", "It must be a number."),
    "invalid.choice": ("Elegí una de las opciones.", "Choose one of the options."),
    "invalid.pattern": (
        "Tiene caracteres que no se admiten aquí.",
        "It has characters that are not allowed here.",
    ),
    "invalid.unknown_field": ("Campo desconocido.", "Unknown field."),
    "invalid.value": ("Valor no válido.", "Invalid value."),
    # field-specific refusals
    "invalid.slug": (
        "Solo minúsculas, dígitos y guiones, empezando por una letra o un dígito.",
        "Only lowercase letters, digits and dashes, starting with a letter or a digit.",
    ),
    "invalid.slug_taken": ("Ya hay un agente con ese identificador.", "An agent has that slug."),
    "invalid.tools_json": (
        "Tiene que ser JSON: una lista de herramientas como en el ejemplo.",
        "It must be JSON: a list of tools like the example.",
    ),
    "invalid.tool_url": (
        "La URL tiene que ser http(s) con un host, sin espacios ni credenciales; las "
        "variables {{…}} van en la ruta o la consulta.",
        "The URL must be http(s) with a host, without spaces or credentials; {{…}} "
        "placeholders go in the path or the query.",
    ),
    "invalid.tool_parameters": (
        "Los parámetros tienen que ser un JSON Schema de un objeto.",
        "The parameters must be a JSON Schema of an object.",
    ),
    "invalid.tool_names": (
        "Cada herramienta necesita un nombre distinto.",
        "Every tool needs a different name.",
    ),
    "invalid.tool_header": (
        "Cada encabezado lleva 'value' o 'env' (uno solo), sin caracteres de control.",
        "Every header has 'value' or 'env' (just one), without control characters.",
    ),
    "invalid.local_model": (
        "Un modelo local necesita la ruta de un archivo GGUF registrado, y la ruta solo sirve "
        "para el proveedor local.",
        "A local model needs the path of a registered GGUF file, and the path is for the local "
        "provider only.",
    ),
    "invalid.knowledge_base": (
        "Una base de conocimiento elegida no es de este espacio.",
        "A chosen knowledge base is not of this workspace.",
    ),
    "invalid.knowledge_name_taken": (
        "Ya hay una base con ese nombre en este espacio.",
        "This workspace already has a base with that name.",
    ),
    "invalid.knowledge_bases_full": (
        "El espacio ya tiene el máximo de bases de conocimiento.",
        "The workspace already has the most knowledge bases it may have.",
    ),
    "invalid.assertions": (
        "Agregá al menos una condición: un texto, un estado o que cite una fuente.",
        "Add at least one assertion: a text, a status or that it cites a source.",
    ),
    "invalid.secret_name": (
        "Letras, dígitos o '_' (hasta 64), sin empezar por un dígito.",
        "Letters, digits or '_' (up to 64), not starting with a digit.",
    ),
    "invalid.secret_value": (
        "De 1 a 4096 caracteres visibles, sin espacios.",
        "1 to 4096 visible characters, without spaces.",
    ),
    "invalid.secrets_full": (
        "El espacio ya tiene el máximo de secretos: borrá alguno antes.",
        "The workspace already has the most secrets it may hold: delete one first.",
    ),
    "invalid.agent_unknown": ("No existe ese agente.", "There is no such agent."),
    "invalid.user_name": (
        "Letras, dígitos y . _ @ - (hasta 64), empezando por una letra o un dígito.",
        "Letters, digits and . _ @ - (up to 64), starting with a letter or a digit.",
    ),
    "invalid.user_taken": ("Ya hay un usuario con ese nombre.", "A user has that name."),
    "invalid.short_text": (
        "Al menos {min_length} caracteres.",
        "At least {min_length} characters.",
    ),
    # knowledge uploads, by the error's code
    "upload.unsupported_media_type": (
        "Ese tipo de archivo no se admite: subí PDF, DOCX, HTML, Markdown o texto.",
        "That kind of file is not supported: upload PDF, DOCX, HTML, Markdown or text.",
    ),
    "upload.unreadable_document": (
        "El archivo no se puede leer (¿está dañado o no es del tipo que dice su nombre?).",
        "The file cannot be read (is it damaged, or not the kind its name says?).",
    ),
    "upload.empty_document": (
        "No se pudo sacar texto del documento (un PDF escaneado necesita OCR antes).",
        "No text could be extracted (a scanned PDF needs OCR first).",
    ),
    "upload.encrypted_document": (
        "El PDF tiene contraseña: subí una copia sin ella.",
        "The PDF has a password: upload a copy without one.",
    ),
    "upload.too_many_pages": ("El PDF tiene demasiadas páginas.", "The PDF has too many pages."),
    "upload.document_too_deep": (
        "El HTML está anidado demasiado hondo para leerlo.",
        "The HTML is nested too deep to read.",
    ),
    "upload.document_too_large": (
        "El documento descomprimido es demasiado grande.",
        "The unpacked document is too large.",
    ),
    "upload.too_large": (
        "El documento es demasiado grande (o da demasiados fragmentos).",
        "The document is too large (or gives too many chunks).",
    ),
    "upload.invalid": (
        "El nombre del archivo no sirve: hasta 255 caracteres, sin saltos de línea.",
        "The file name does not work: up to 255 characters, without line breaks.",
    ),
    "upload.overloaded": (
        "Ya se están indexando muchos documentos; probá de nuevo en un rato.",
        "Many documents are being indexed already; try again shortly.",
    ),
    "upload.failed": ("No se pudo subir el documento.", "The document could not be uploaded."),
    "budget.invalid": (
        "El presupuesto es un número de dólares, 0 o más (vacío: sin límite).",
        "The budget is a number of dollars, 0 or more (empty: no limit).",
    ),
}
