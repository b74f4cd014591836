"""Claves: production, draft and channel keys with scopes and a rate limit, when each was
created and last ran a turn; the secret is shown once, with a copy button, on the page
that answers its creation; revoking takes effect at once. The page also lists the
workspace's model secrets (names only; ``vigia.console.secrets``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import Access, Configurer, Reader
from vigia.console.field_errors import FieldErrors, field_errors, one
from vigia.console.form_limits import Bounds, bounds, choices
from vigia.console.form_values import FormValues, typed
from vigia.console.rendering import page
from vigia.console.responses import Form, number, see_other, text
from vigia.engine import last_turn_by_key
from vigia.errors import NotFound
from vigia.http.deps import Db
from vigia.workspaces import secrets
from vigia.workspaces import service as workspaces
from vigia.workspaces.auth import SCOPES
from vigia.workspaces.schemas import KeyCreate, SecretUpdate

router = APIRouter(prefix="/console/w/{ws}/keys", include_in_schema=False)
SECRET_NAME_BOUNDS = Bounds(max_length=64)
"""A secret name is ``SECRET_NAME``: at most 64 characters."""


class IssuedView(BaseModel):
    secret: str = Field(repr=False)
    prefix: str


def keys_page(
    request: Request,
    access: Access,
    db: Session,
    *,
    status: int = 200,
    issued: IssuedView | None = None,
    errors: FieldErrors | None = None,
    values: FormValues | None = None,
    secret_errors: FieldErrors | None = None,
    secret_name: str = "",
) -> Response:
    """The keys and secrets; a key that was refused shows its ``errors`` next to the fields,
    which keep the posted ``values`` (a refused secret: ``secret_errors``, and the typed
    ``secret_name``)."""
    keys = workspaces.list_keys(db, access.workspace)
    return page(
        request,
        "keys.html",
        status=status,
        access=access,
        section="keys",
        keys=keys,
        last_turns=last_turn_by_key(db, [key.id for key in keys]),
        agents=agents.list_agents(db, access.workspace.id),
        slugs=agents.agent_slugs(db, access.workspace.id),
        scopes=SCOPES,
        issued=issued,
        errors=errors or {},
        values=values or FormValues(KeyCreate().model_dump(include={"env", "scopes"})),
        envs=choices(KeyCreate, "env"),
        limits={"name": bounds(KeyCreate, "name"), "rpm": bounds(KeyCreate, "rpm")},
        secrets=secrets.list_secrets(db, access.workspace.id),
        secret_errors=secret_errors or {},
        secret_name=secret_name,
        secret_limits={"name": SECRET_NAME_BOUNDS, "value": bounds(SecretUpdate, "value")},
    )


@router.get("")
def key_list(request: Request, access: Reader, db: Db) -> Response:
    return keys_page(request, access, db)


@router.post("")
def create_key(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """A new key; this response is the only one that shows its secret."""
    try:
        spec = KeyCreate.model_validate(
            {
                "agent": text(form, "agent") or None,
                "env": text(form, "env", "production"),
                "scopes": [s for s in form.getlist("scopes") if isinstance(s, str)],
                "rpm": number(form, "rpm"),
                "name": text(form, "name").strip(),
            }
        )
        agent_id = agents.get_agent(db, access.workspace.id, spec.agent).id if spec.agent else None
        issued = workspaces.create_key(
            db,
            access.workspace,
            agent_id=agent_id,
            env=spec.env,
            scopes=list(spec.scopes),
            rpm=spec.rpm,
            name=spec.name,
        )
    except ValidationError as error:
        errors = field_errors(error)
        values = typed(form, lists=("scopes",))
        return keys_page(request, access, db, status=422, errors=errors, values=values)
    except NotFound as error:
        errors = one("agent", "invalid.agent_unknown")
        values = typed(form, lists=("scopes",))
        return keys_page(request, access, db, status=error.status, errors=errors, values=values)
    view = IssuedView(secret=issued.secret, prefix=issued.row.prefix)
    return keys_page(request, access, db, status=201, issued=view)


@router.post("/{key_id}/revoke")
def revoke_key(key_id: str, access: Configurer, db: Db) -> Response:
    workspaces.revoke_key(db, access.workspace, key_id)
    return see_other(f"{access.base}/keys")
