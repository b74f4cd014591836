"""``vigia secret …``: a workspace's secrets (upstream keys); values are read, never shown."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from vigia.db.cli_session import in_session
from vigia.errors import Invalid
from vigia.kit.cli_output import emit, fail
from vigia.workspaces import secrets
from vigia.workspaces.service import find_workspace

app = typer.Typer(help="Workspace secrets (upstream keys)", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
WorkspaceOpt = Annotated[str, typer.Option("--workspace", help="Workspace id or name.")]


@app.command("set")
def secret_set(
    name: str,
    workspace: WorkspaceOpt,
    value_stdin: Annotated[
        bool, typer.Option("--value-stdin", help="Read the value from standard input.")
    ] = False,
    as_json: Json = False,
) -> None:
    """Adds or replaces a secret; the value comes from stdin (never from the command line)."""
    if not value_stdin:
        fail(Invalid("pass the value on standard input with --value-stdin"), as_json)
    value = sys.stdin.read().strip()
    row = in_session(
        as_json, lambda s: secrets.set_secret(s, find_workspace(s, workspace).id, name, value)
    )
    emit({"name": row.name, "updated_at": row.updated_at}, as_json, human=f"secret {row.name} set")


@app.command("list")
def secret_list(workspace: WorkspaceOpt, as_json: Json = False) -> None:
    """The workspace's secrets: names and dates only."""

    def names(session: Any) -> list[dict[str, Any]]:
        rows = secrets.list_secrets(session, find_workspace(session, workspace).id)
        return [
            {"name": r.name, "created_at": r.created_at, "updated_at": r.updated_at} for r in rows
        ]

    listed = in_session(as_json, names)
    emit({"secrets": listed}, as_json, human="\n".join(s["name"] for s in listed) or "no secrets")


@app.command("delete")
def secret_delete(name: str, workspace: WorkspaceOpt, as_json: Json = False) -> None:
    """Removes a secret (agents naming it fail their upstream calls until it is set again)."""
    in_session(as_json, lambda s: secrets.delete_secret(s, find_workspace(s, workspace).id, name))
    emit({"name": name, "deleted": True}, as_json, human=f"secret {name} deleted")
