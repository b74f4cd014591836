"""What a form's inputs show again after a refusal: the values as they were posted."""

from __future__ import annotations

from typing import Any

from starlette.datastructures import FormData

from vigia.console.responses import text


class FormValues(dict[str, Any]):
    """Input name to the value it shows (a name it lacks shows empty)."""

    def __missing__(self, key: str) -> str:
        return ""


def typed(form: FormData, lists: tuple[str, ...] = ()) -> FormValues:
    """The text fields of ``form`` as posted; the fields in ``lists`` (checkboxes, multiple
    selects) as every value they carried."""
    values = FormValues({name: text(form, name) for name in form})
    for name in lists:
        values[name] = [v for v in form.getlist(name) if isinstance(v, str)]
    return values
