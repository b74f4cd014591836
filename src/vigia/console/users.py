"""Usuarios: the people of the workspace for its owners and admins: adding a user with a
role, changing a role, disabling or enabling an account, setting a password
(``vigia.users.management`` decides who may change whom). Other roles get a 403."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.console.access import Access, Configurer
from vigia.console.field_errors import FieldErrors, field_errors, one
from vigia.console.form_limits import bounds
from vigia.console.form_values import FormValues, typed
from vigia.console.rendering import page
from vigia.console.responses import Form, see_other, text
from vigia.errors import Conflict, Forbidden
from vigia.http.deps import Db
from vigia.users import management
from vigia.users.roles import ROLES
from vigia.users.schemas import MemberCreate, NewPassword

router = APIRouter(prefix="/console/w/{ws}/users", include_in_schema=False)
Done = Literal["", "created", "role_changed", "disabled_notice", "enabled_notice", "password_set"]
"""The notice after a change (``users.<done>`` in the catalogue)."""
REFUSALS = ("owner", "self", "elsewhere", "role")
"""Why a change was not allowed (``users.refused_<why>``)."""
OVERRIDES = {
    ("name", "string_pattern_mismatch"): "invalid.user_name",
    ("name", "string_too_long"): "invalid.user_name",
    ("password", "string_too_short"): "invalid.short_text",
}


def _page(
    request: Request,
    access: Access,
    db: Session,
    *,
    status: int = 200,
    done: str = "",
    who: str = "",
    refused: str = "",
    errors: FieldErrors | None = None,
    values: FormValues | None = None,
    row_errors: tuple[str, FieldErrors] | None = None,
) -> Response:
    """The members with their forms. ``done``/``who``: the notice of the last change (a
    ``who`` that names no member is left out: the link cannot make the page say anything);
    ``refused``: why a change was not allowed; ``errors``/``values``: the new-user form
    refused; ``row_errors``: a member's id and the problem of their password form."""
    grantable = ROLES if access.role == "owner" else tuple(r for r in ROLES if r != "owner")
    everyone = management.members(db, access.workspace.id)
    return page(
        request,
        "users.html",
        status=status,
        access=access,
        section="users",
        members=everyone,
        grantable=grantable,
        done=done,
        who=who if any(m.user.name == who for m in everyone) else "",
        refused=refused,
        errors=errors or {},
        values=values or FormValues(role=MemberCreate.model_fields["role"].default),
        row_errors=row_errors or ("", {}),
        limits={"name": bounds(MemberCreate, "name"), "password": bounds(MemberCreate, "password")},
    )


@router.get("")
def user_list(
    request: Request, access: Configurer, db: Db, done: Done = "", who: str = ""
) -> Response:
    return _page(request, access, db, done=done, who=who)


def _back(access: Access, done: str, who: str) -> Response:
    return see_other(f"{access.base}/users?done={done}&who={who}")


@router.post("")
def create_user(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """A new user with a role in this workspace; a refusal keeps the typed name and role."""
    values = typed(form)
    values.pop("password", None)
    try:
        spec = MemberCreate.model_validate(
            {
                "name": text(form, "name").strip(),
                "password": text(form, "password"),
                "role": text(form, "role", MemberCreate.model_fields["role"].default),
            }
        )
        created = management.add_member(
            db, access.workspace.id, access.user, spec.name, spec.password, spec.role
        )
    except ValidationError as error:
        errors = field_errors(error, overrides=OVERRIDES)
        return _page(request, access, db, status=422, errors=errors, values=values)
    except Conflict as error:
        errors = one("name", "invalid.user_taken")
        return _page(request, access, db, status=error.status, errors=errors, values=values)
    except Forbidden as error:
        return _page(request, access, db, status=error.status, refused=error.detail)
    return _back(access, "created", created.user.name)


@router.post("/{user_id}/role")
def change_role(request: Request, user_id: str, access: Configurer, db: Db, form: Form) -> Response:
    target = management.member(db, access.workspace.id, user_id)
    role = text(form, "role")
    if role not in ROLES:
        return _page(request, access, db, status=422, refused="role")
    try:
        management.change_role(db, access.workspace.id, access.user, target, role)
    except Forbidden as error:
        return _page(request, access, db, status=error.status, refused=error.detail)
    return _back(access, "role_changed", target.user.name)


@router.post("/{user_id}/disable")
def disable(request: Request, user_id: str, access: Configurer, db: Db, form: Form) -> Response:
    """Disables the account (``enable=on``: enables it again)."""
    target = management.member(db, access.workspace.id, user_id)
    enable = text(form, "enable") == "on"
    try:
        management.disable(db, access.user, target, disabled=not enable)
    except Forbidden as error:
        return _page(request, access, db, status=error.status, refused=error.detail)
    return _back(access, "enabled_notice" if enable else "disabled_notice", target.user.name)


@router.post("/{user_id}/password")
def reset_password(
    request: Request, user_id: str, access: Configurer, db: Db, form: Form
) -> Response:
    """Sets the account's password; its sessions end (the actor's own too, for themselves)."""
    target = management.member(db, access.workspace.id, user_id)
    try:
        spec = NewPassword.model_validate({"password": text(form, "password")})
        management.reset_password(db, access.user, target, spec.password)
    except ValidationError as error:
        row = (target.user.id, field_errors(error, overrides=OVERRIDES))
        return _page(request, access, db, status=422, row_errors=row)
    except Forbidden as error:
        return _page(request, access, db, status=error.status, refused=error.detail)
    return _back(access, "password_set", target.user.name)
