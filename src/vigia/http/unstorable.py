"""Text that no database can store, and where a request holds it.

Two characters fail wherever they reach storage or a response, as a 500: a lone UTF-16
surrogate (JSON may spell ``"\\ud800"``; no UTF-8 text can hold it) and NUL (``"\\u0000"``,
``%00``; PostgreSQL text cannot hold it). The errors name the field in pydantic's shape
(``type``, ``loc``, ``msg``), so each surface renders them as its other validation errors.
"""

from __future__ import annotations

import re
from typing import Any

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
ERRORS = {
    "string_unicode": "String should not contain a lone surrogate (a \\ud800-\\udfff escape)",
    "string_nul": "String should not contain a NUL character (\\u0000)",
}
Loc = tuple[str | int, ...]


def unstorable(text: str) -> str | None:
    """The error type of a string holding a surrogate or NUL, or None."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    return "string_nul" if found.group() == "\x00" else "string_unicode"


def printable(text: str) -> str:
    """``text`` with surrogates and NUL escaped, safe to put in a response."""
    return text.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")


def unstorable_at(value: Any, loc: Loc = ()) -> tuple[Loc, str] | None:
    """Where in a decoded JSON value a string or object key cannot be stored, and why."""
    if isinstance(value, str):
        kind = unstorable(value)
        return None if kind is None else (loc, kind)
    if isinstance(value, dict):
        for key, item in value.items():
            kind = unstorable(key)
            if kind is not None:
                return (*loc, printable(key)), kind
            found = unstorable_at(item, (*loc, key))
            if found is not None:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = unstorable_at(item, (*loc, index))
            if found is not None:
                return found
    return None


def error(loc: Loc, kind: str) -> dict[str, Any]:
    """The validation error of unstorable text at ``loc``."""
    return {"type": kind, "loc": loc, "msg": ERRORS[kind]}
