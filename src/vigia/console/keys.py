"""Claves: production, draft and channel keys with scopes and a rate limit; the secret is
shown once, on the page that answers its creation; revoking takes effect at once. The
page also lists the workspace's model secrets (names only; ``vigia.console.secrets``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.console.access import Access, Configurer, Reader
from vigia.console.agent_form import problems
from vigia.console.rendering import page
from vigia.console.responses import Checked, Form, number, see_other, text
from vigia.errors import VigiaError
from vigia.http.deps import Db
from vigia.workspaces import secrets
from vigia.workspaces import service as workspaces
from vigia.workspaces.auth import SCOPES
from vigia.workspaces.schemas import KeyCreate

router = APIRouter(prefix="/console/w/{ws}/keys", include_in_schema=False)


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
    error: str | None = None,
    secret_error: str | None = None,
) -> Response:
    agent_rows = agents.list_agents(db, access.workspace.id)
    return page(
        request,
        "keys.html",
        status=status,
        access=access,
        section="keys",
        keys=workspaces.list_keys(db, access.workspace),
        agents=agent_rows,
        slugs={a.id: a.slug for a in agent_rows},
        scopes=SCOPES,
        issued=issued,
        error=error,
        secrets=secrets.list_secrets(db, access.workspace.id),
        secret_error=secret_error,
    )


@router.get("")
def key_list(request: Request, access: Reader, db: Db) -> Response:
    return keys_page(request, access, db)


@router.post("", dependencies=Checked)
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
        return keys_page(request, access, db, status=422, error="; ".join(problems(error)))
    except VigiaError as error:
        return keys_page(request, access, db, status=error.status, error=error.detail)
    view = IssuedView(secret=issued.secret, prefix=issued.row.prefix)
    return keys_page(request, access, db, status=201, issued=view)


@router.post("/{key_id}/revoke", dependencies=Checked)
def revoke_key(key_id: str, access: Configurer, db: Db) -> Response:
    workspaces.revoke_key(db, access.workspace, key_id)
    return see_other(f"{access.base}/keys")
