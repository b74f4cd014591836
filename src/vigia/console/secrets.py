"""Secretos del modelo: an owner or admin adds, replaces and deletes the workspace's
upstream keys; values are never shown (the keys page lists names and dates)."""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from pydantic import ValidationError
from starlette.responses import Response

from vigia.console.access import Configurer
from vigia.console.field_errors import FieldErrors, one
from vigia.console.keys import keys_page
from vigia.console.responses import Form, see_other, text
from vigia.errors import Invalid
from vigia.http.deps import Db
from vigia.llm.settings import SECRET_NAME
from vigia.workspaces import secrets
from vigia.workspaces.schemas import SecretUpdate

router = APIRouter(prefix="/console/w/{ws}/secrets", include_in_schema=False)


@router.post("")
def save_secret(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """Adds the secret or replaces its value; back to the keys page. A refusal names the
    field and keeps the typed name (never the value)."""
    name, value = text(form, "name").strip(), text(form, "value").strip()
    errors: FieldErrors = {}
    if not re.fullmatch(SECRET_NAME, name):
        errors.update(one("secret_name", "invalid.secret_name"))
    try:
        SecretUpdate.model_validate({"value": value})
    except ValidationError:
        errors.update(one("secret_value", "invalid.secret_value"))
    if not errors:
        try:
            secrets.set_secret(db, access.workspace.id, name, value)
        except Invalid as error:
            return keys_page(
                request,
                access,
                db,
                status=error.status,
                secret_errors=one("secret_name", "invalid.secrets_full"),
                secret_name=name,
            )
        return see_other(f"{access.base}/keys#secrets")
    return keys_page(request, access, db, status=422, secret_errors=errors, secret_name=name)


@router.post("/{name}/delete")
def delete_secret(name: str, access: Configurer, db: Db) -> Response:
    secrets.delete_secret(db, access.workspace.id, name)
    return see_other(f"{access.base}/keys#secrets")
