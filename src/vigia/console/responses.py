"""What every console route shares: the submitted form, its fields, redirects (the CSRF check
is a dependency of every console router: ``vigia.console.router.mount``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.datastructures import FormData
from starlette.responses import RedirectResponse


async def _form(request: Request) -> FormData:
    return await request.form()


Form = Annotated[FormData, Depends(_form)]
"""The submitted form as a whole (for forms with many or repeated fields)."""


def see_other(url: str) -> RedirectResponse:
    """303: the browser follows with a GET (post, redirect, get)."""
    return RedirectResponse(url, status_code=303)


def text(form: FormData, name: str, default: str = "") -> str:
    """A text field of ``form`` (files and missing fields give ``default``)."""
    value = form.get(name)
    return value if isinstance(value, str) else default


def number(
    form: FormData, name: str, kind: type[int] | type[float] = int
) -> int | float | str | None:
    """A numeric field as a number (the models take JSON numbers only); text that is no
    number stays text, so validation names the field."""
    value = text(form, name).strip()
    if not value:
        return None
    try:
        return kind(value)
    except ValueError:
        return value
