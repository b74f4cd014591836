"""Secretos del modelo: an owner or admin adds, replaces and deletes the workspace's
upstream keys; values are never shown (the keys page lists names and dates)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from vigia.console.access import Configurer
from vigia.console.keys import keys_page
from vigia.console.responses import Checked, Form, see_other, text
from vigia.errors import VigiaError
from vigia.http.deps import Db
from vigia.workspaces import secrets

router = APIRouter(prefix="/console/w/{ws}/secrets", include_in_schema=False)


@router.post("", dependencies=Checked)
def save_secret(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """Adds the secret or replaces its value; back to the keys page."""
    name, value = text(form, "name").strip(), text(form, "value").strip()
    try:
        secrets.set_secret(db, access.workspace.id, name, value)
    except VigiaError as error:
        return keys_page(request, access, db, status=error.status, secret_error=error.detail)
    return see_other(f"{access.base}/keys#secrets")


@router.post("/{name}/delete", dependencies=Checked)
def delete_secret(name: str, access: Configurer, db: Db) -> Response:
    secrets.delete_secret(db, access.workspace.id, name)
    return see_other(f"{access.base}/keys#secrets")
