"""Invalid input as the console shows it: each error under the form field it belongs to, as
a catalogue key (``invalid.*``, ``vigia.console.validation_texts``) with its numbers, never
pydantic's English. A form says which model location each of its fields fills."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pydantic import ValidationError

from vigia.console.numbers import format_number

Loc = tuple[str | int, ...]

TYPE_KEYS: dict[str, str] = {
    "missing": "invalid.missing",
    "string_too_long": "invalid.string_too_long",
    "string_too_short": "invalid.string_too_short",
    "too_long": "invalid.too_long",
    "too_short": "invalid.too_short",
    "greater_than_equal": "invalid.greater_than_equal",
    "less_than_equal": "invalid.less_than_equal",
    "greater_than": "invalid.greater_than",
    "less_than": "invalid.less_than",
    "int_type": "invalid.integer",
    "int_parsing": "invalid.integer",
    "int_from_float": "invalid.integer",
    "float_type": "invalid.number",
    "float_parsing": "invalid.number",
    "finite_number": "invalid.number",
    "literal_error": "invalid.choice",
    "enum": "invalid.choice",
    "bool_type": "invalid.choice",
    "string_pattern_mismatch": "invalid.pattern",
    "extra_forbidden": "invalid.unknown_field",
}
"""The catalogue key of each pydantic error type; any other type is ``invalid.value``."""
PARAMS = ("max_length", "min_length", "ge", "le", "gt", "lt")
"""The context values the texts may name."""


@dataclass(frozen=True)
class FieldError:
    """One problem of one form field: its text's key, the numbers it names, and where inside
    the field it is (a tool's number and key in the tools' JSON, a line of the topics)."""

    key: str
    params: Mapping[str, int | float | str] = field(default_factory=dict)
    within: Loc = ()


FieldErrors = dict[str, list[FieldError]]
"""Form field name to its problems (the page shows them next to the field)."""


def message(error: FieldError, t: Callable[[str], str], lang: str) -> str:
    """The error in the page's language: ``n.º 2 · url: Falta completar este campo.``"""
    params = {
        name: format_number(value, lang) if isinstance(value, int | float) else value
        for name, value in error.params.items()
    }
    text = t(error.key).format(**params)
    if not error.within:
        return text
    place = " · ".join(
        t("form.item").format(n=part + 1) if isinstance(part, int) else part
        for part in error.within
    )
    return f"{place}: {text}"


def _field_of(loc: Loc, fields: Mapping[Loc, str]) -> tuple[str, Loc]:
    """The form field filling the longest prefix of ``loc``, and the rest of ``loc``."""
    for size in range(len(loc), 0, -1):
        if loc[:size] in fields:
            return fields[loc[:size]], loc[size:]
    return (str(loc[0]) if loc else "form"), loc[1:]


def field_errors(
    error: ValidationError,
    fields: Mapping[Loc, str] | None = None,
    overrides: Mapping[tuple[str, str], str] | None = None,
) -> FieldErrors:
    """Each error of ``error`` under its form field. ``fields``: model location to form
    field (unlisted locations use their first part). ``overrides``: a key for (form field,
    error type), or for a ``value_error`` (form field, a name inside the field or "")."""
    fields = fields or {}
    overrides = overrides or {}
    found: FieldErrors = {}
    for item in error.errors():
        name, within = _field_of(tuple(item["loc"]), fields)
        kind = item["type"]
        key = overrides.get((name, kind)) or TYPE_KEYS.get(kind, "invalid.value")
        if kind == "value_error":
            names = [part for part in within if isinstance(part, str)] + [""]
            key = next((overrides[(name, n)] for n in names if (name, n) in overrides), key)
        context = item.get("ctx") or {}
        params = {p: context[p] for p in PARAMS if isinstance(context.get(p), int | float | str)}
        found.setdefault(name, []).append(FieldError(key, params, within))
    return found


def one(name: str, key: str, **params: int | float | str) -> FieldErrors:
    """A single problem of field ``name`` (a refusal of the domain, not of validation)."""
    return {name: [FieldError(key, params)]}
