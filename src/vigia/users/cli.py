"""``vigia user …``: create users (console and worlds) and give them roles in workspaces."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from sqlalchemy.orm import Session

from vigia.db.cli_session import in_session
from vigia.errors import Invalid, NotFound
from vigia.kit.cli_output import emit, fail
from vigia.users import roles
from vigia.users.service import create_user, find_user
from vigia.workspaces.service import find_workspace

user_app = typer.Typer(help="Users of the console and the worlds surface", no_args_is_help=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object")]
RoleOpt = Annotated[str, typer.Option("--role", help="owner, admin, operator or viewer")]


@user_app.callback()
def _users() -> None:
    """Users log in to the console (/console) and the worlds surface (POST /auth/login)."""


@user_app.command("create")
def user_create(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the password from stdin")
    ] = False,
    workspace: Annotated[
        str | None, typer.Option("--workspace", help="Workspace id or name to give a role in")
    ] = None,
    role: RoleOpt = "viewer",
    as_json: JsonFlag = False,
) -> None:
    """Creates a user; the password is read from stdin (first line)."""
    if not password_stdin:
        fail(Invalid("pass the password on stdin with --password-stdin"), as_json)
    password = sys.stdin.readline().rstrip("\r\n")

    def action(session: Session) -> dict[str, Any]:
        user = create_user(session, name, password)
        payload: dict[str, Any] = {"id": user.id, "name": user.name}
        if workspace is not None:
            ws = find_workspace(session, workspace)
            payload.update(workspace=ws.name, role=roles.grant(session, user.id, ws.id, role).role)
        return payload

    payload = in_session(as_json, action)
    emit(payload, as_json, f"user {payload['name']} created")


@user_app.command("grant")
def user_grant(
    name: Annotated[str, typer.Argument(metavar="NAME")],
    workspace: Annotated[str, typer.Option("--workspace", help="Workspace id or name")],
    role: RoleOpt,
    as_json: JsonFlag = False,
) -> None:
    """Gives user NAME a role in a workspace (replacing the one they had there)."""

    def action(session: Session) -> dict[str, Any]:
        user = find_user(session, name)
        if user is None:
            raise NotFound(f"user {name!r} not found")
        ws = find_workspace(session, workspace)
        granted = roles.grant(session, user.id, ws.id, role)
        return {"name": user.name, "workspace": ws.name, "role": granted.role}

    payload = in_session(as_json, action)
    emit(payload, as_json, f"{payload['name']} is {payload['role']} of {payload['workspace']}")
