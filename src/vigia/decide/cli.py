"""`vigia decide …` commands: the monthly token quota of a workspace."""

from __future__ import annotations

from typing import Annotated

import typer

from vigia.db.session import session_scope
from vigia.decide import repository
from vigia.errors import Invalid, VigiaError
from vigia.kit.cli_output import emit, fail
from vigia.workspaces.service import find_workspace

app = typer.Typer(help="Decisions: quotas and checks", no_args_is_help=True)

Workspace = Annotated[str, typer.Option("--workspace", help="workspace name or id")]
Json = Annotated[bool, typer.Option("--json", help="print one JSON object")]


def _usage_payload(workspace_ref: str, set_tokens: int | None) -> dict[str, object]:
    with session_scope() as session:
        workspace = find_workspace(session, workspace_ref)
        if set_tokens is not None:
            if set_tokens < 0:
                raise Invalid("the quota must be zero or more tokens")
            workspace.decide_quota_tokens = set_tokens
        month = repository.current_month()
        return {
            "workspace": workspace.name,
            "month": month,
            "tokens_este_mes": repository.used(session, workspace.id, month),
            "cuota_mensual": workspace.decide_quota_tokens,
        }


@app.command("quota")
def quota(
    workspace: Workspace,
    set_tokens: Annotated[
        int | None, typer.Option("--set", help="new monthly quota in tokens")
    ] = None,
    as_json: Json = False,
) -> None:
    """Shows (or with --set changes) the workspace's monthly decide quota and this month's use."""
    try:
        payload = _usage_payload(workspace, set_tokens)
    except VigiaError as error:
        fail(error, as_json)
    human = (
        f"{payload['workspace']}: {payload['tokens_este_mes']} of {payload['cuota_mensual']} "
        f"tokens used in {payload['month']}"
    )
    emit(payload, as_json, human)
