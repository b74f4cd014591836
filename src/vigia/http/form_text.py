"""Refuses form fields that no database can store: NUL or a lone surrogate in a field's name
or value, or in an upload's file name (never in a file's contents, which the parsers read).

An app-wide dependency: FastAPI has parsed the form (urlencoded or multipart) before any
dependency runs, and Starlette keeps it, so this reads the very values the route gets. The
error is a ``RequestValidationError`` naming the field, rendered like any other: the
surface's 422, or the console's error page.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from starlette.datastructures import UploadFile

from vigia.http.unstorable import error, printable, unstorable

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


async def refuse_unstorable_fields(request: Request) -> None:
    """Raises a 422 for the first form field holding NUL or a lone surrogate."""
    content_type = request.headers.get("content-type", "").lower()
    if not content_type.startswith(FORM_TYPES):
        return
    for name, value in (await request.form()).multi_items():
        kind = unstorable(name)
        if kind is not None:
            raise RequestValidationError([error(("body", printable(name)), kind)])
        text = (value.filename or "") if isinstance(value, UploadFile) else value
        kind = unstorable(text)
        if kind is not None:
            raise RequestValidationError([error(("body", name), kind)])
