"""The ``vigia`` command line (contract: shared/CLI.md). Every command accepts ``--json``."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Annotated, Any

import typer

from vigia.agents import service as agents
from vigia.agents.schemas import AgentCreate, AgentOut, AgentPatch
from vigia.config import get_settings
from vigia.conversations import service as conversations
from vigia.db.cli_session import in_session
from vigia.db.migrate import upgrade
from vigia.decide.cli import app as decide_app
from vigia.engine import run_view
from vigia.errors import VigiaError
from vigia.evaluation.cli import app as eval_app
from vigia.evaluation.cli import export_promptfoo, publish_gated
from vigia.kit.cli_output import emit, fail
from vigia.knowledge.cli import app as knowledge_app
from vigia.llm.cli import app as model_app
from vigia.operations.cli import register as register_operations
from vigia.users import service as users
from vigia.users.cli import user_app
from vigia.workspaces import service as workspaces
from vigia.workspaces.cli import app as secret_app
from vigia.worlds.cli import world_app

app = typer.Typer(help="Vigia: a self-hosted AI agent platform.", no_args_is_help=True)
workspace_app = typer.Typer(help="Workspaces and budgets", no_args_is_help=True)
agent_app = typer.Typer(help="Agents: create, edit the draft, publish", no_args_is_help=True)
key_app = typer.Typer(help="API keys", no_args_is_help=True)
runs_app = typer.Typer(help="Run traces", no_args_is_help=True)
conversation_app = typer.Typer(help="Conversations and human handoff", no_args_is_help=True)
app.add_typer(workspace_app, name="workspace")
app.add_typer(agent_app, name="agent")
app.add_typer(key_app, name="key")
app.add_typer(runs_app, name="runs")
app.add_typer(conversation_app, name="conversation")
app.add_typer(knowledge_app, name="knowledge")
app.add_typer(world_app, name="world")
app.add_typer(user_app, name="user")
app.add_typer(decide_app, name="decide")
app.add_typer(eval_app, name="eval")
app.add_typer(secret_app, name="secret")
app.add_typer(model_app, name="model")
agent_app.command("export-promptfoo")(export_promptfoo)
register_operations(app)

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
WorkspaceOpt = Annotated[str, typer.Option("--workspace", help="Workspace id or name.")]


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Bind address.")] = None,
    port: Annotated[int | None, typer.Option(help="Port.")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
) -> None:
    """Serves every surface (default 127.0.0.1:8000).

    On SIGTERM it stops accepting connections and lets requests and streams in flight
    finish for up to ``VIGIA_SHUTDOWN_GRACE_S`` seconds (docs/operations.md).
    """
    import uvicorn

    from vigia.app import create_app
    from vigia.guardrails.injection import warm_up
    from vigia.http.forwarded import UVICORN_OPTIONS
    from vigia.observability import logs
    from vigia.operations.retention import RetentionTimer

    settings = get_settings()
    logs.configure(log_level)
    upgrade()
    warm_up()  # load the injection classifier now, not in the first request
    if settings.retention_days is not None:
        RetentionTimer(settings.retention_days).start()
    # The startup heap (models, vocabularies) never becomes garbage: keep it out of the
    # cyclic GC, whose full passes over it stalled every request for ~0.4 s under load.
    gc.collect()
    gc.freeze()
    uvicorn.run(
        create_app(),
        host=host or settings.host,
        port=port or settings.port,
        log_level=log_level,
        log_config=None,  # logs.configure set up the (JSON) handler uvicorn logs through
        access_log=False,  # the request middleware logs each request, with its id
        timeout_graceful_shutdown=settings.shutdown_grace_s,
        **UVICORN_OPTIONS,  # forwarded headers count only from VIGIA_TRUSTED_PROXIES
    )


@app.command()
def demo(
    model: Annotated[
        Path | None,
        typer.Option("--model", help="A GGUF file the demo agent answers with (local extra)."),
    ] = None,
    sha256: Annotated[
        str, typer.Option("--sha256", help="The SHA-256 of the --model file (64 hex).")
    ] = "",
    as_json: Json = False,
) -> None:
    """Creates, once, the demo workspace with agent ``asistente-demo``; prints fresh keys.

    With ``--model FILE --sha256 HEX`` the file is registered and the agent answers through
    it (docs/local-models.md)."""
    from vigia.demo import ensure_demo

    result = in_session(as_json, lambda session: ensure_demo(session, model, sha256))
    lines = "\n".join(f"{k}: {v}" for k, v in result.items())
    emit(result, as_json, human=f"Vigia demo is ready.\n{lines}")


@app.command("upgrade-db")
def upgrade_db() -> None:
    """Applies pending database migrations."""
    upgrade()


@workspace_app.command("create")
def workspace_create(name: str, as_json: Json = False) -> None:
    row = in_session(as_json, lambda s: workspaces.create_workspace(s, name))
    emit({"id": row.id, "name": row.name}, as_json, human=f"workspace {row.name} ({row.id})")


@workspace_app.command("budget")
def workspace_budget(
    workspace: str,
    usd: Annotated[
        float | None, typer.Option(help="Monthly budget in USD; omit to remove.")
    ] = None,
    action: Annotated[str, typer.Option(help="pause or alert")] = "pause",
    as_json: Json = False,
) -> None:
    """Sets the workspace's monthly budget and what happens when it is reached."""
    row = in_session(
        as_json,
        lambda s: workspaces.set_budget(s, workspaces.find_workspace(s, workspace), usd, action),
    )
    emit({"id": row.id, "budget_usd": row.budget_usd, "budget_action": row.budget_action}, as_json)


@workspace_app.command("tool-hosts")
def workspace_tool_hosts(
    workspace: str,
    hosts: Annotated[list[str] | None, typer.Argument(help="Names, *.suffixes, addresses.")] = None,
    as_json: Json = False,
) -> None:
    """Sets the hosts the workspace's agent tools may call (none: no tool may call out)."""
    row = in_session(
        as_json,
        lambda s: workspaces.set_tool_hosts(
            s, workspaces.find_workspace(s, workspace), hosts or []
        ),
    )
    emit({"id": row.id, "tool_hosts": row.tool_hosts}, as_json)


@agent_app.command("create")
def agent_create(
    slug: str,
    workspace: WorkspaceOpt,
    name: Annotated[str | None, typer.Option(help="Display name.")] = None,
    instructions_file: Annotated[
        typer.FileText | None, typer.Option("--instructions-file", help="Instructions text.")
    ] = None,
    external: Annotated[bool, typer.Option(help="Reviewed through the output-review API.")] = False,
    as_json: Json = False,
) -> None:
    """An agent (draft; published at once with --external)."""
    instructions = instructions_file.read() if instructions_file else None

    def action(session: Any) -> Any:
        spec = AgentCreate.model_validate(
            {
                "slug": slug,
                "name": name,
                "instructions": instructions,
                "kind": "external" if external else "internal",
            }
        )
        return agents.create_agent(session, workspaces.find_workspace(session, workspace), spec)

    try:
        row = in_session(as_json, action)
    except ValueError as error:
        fail(VigiaError(str(error), status=422, code="invalid"), as_json)
    emit(
        {
            "id": row.id,
            "slug": row.slug,
            "kind": row.kind,
            "published_version": row.published_version,
        },
        as_json,
        human=f"agent {row.slug} ({row.kind})",
    )


@agent_app.command("update")
def agent_update(
    slug: str,
    workspace: WorkspaceOpt,
    config_json: Annotated[str, typer.Option("--set", help="JSON object of draft fields.")],
    as_json: Json = False,
) -> None:
    """Edits the draft with a JSON patch of AgentConfig fields."""

    def action(session: Any) -> Any:
        ws = workspaces.find_workspace(session, workspace)
        patch = AgentPatch.model_validate_json(config_json)
        return agents.update_draft(session, agents.get_agent(session, ws.id, slug), patch)

    try:
        row = in_session(as_json, action)
    except ValueError as error:
        fail(VigiaError(str(error), status=422, code="invalid"), as_json)
    emit(AgentOut.model_validate(row).model_dump(mode="json"), as_json)


@agent_app.command("publish")
def agent_publish(
    slug: str,
    workspace: WorkspaceOpt,
    require_eval: Annotated[
        bool, typer.Option("--require-eval", help="Publish only if every eval case passes.")
    ] = False,
    as_json: Json = False,
) -> None:
    """Publishes the draft as the next version."""
    if require_eval:
        publish_gated(slug, workspace, as_json)
        return

    def action(session: Any) -> Any:
        ws = workspaces.find_workspace(session, workspace)
        return agents.publish(session, agents.get_agent(session, ws.id, slug), by="cli").number

    number = in_session(as_json, action)
    emit({"slug": slug, "version": number}, as_json, human=f"{slug} published as version {number}")


@agent_app.command("rollback")
def agent_rollback(
    slug: str,
    version: Annotated[int, typer.Option(min=1, max=2_147_483_647, help="Version to restore.")],
    workspace: WorkspaceOpt,
    as_json: Json = False,
) -> None:
    """Publishes an earlier version again: its configuration and the knowledge it read."""

    def action(session: Any) -> Any:
        ws = workspaces.find_workspace(session, workspace)
        agent = agents.get_agent(session, ws.id, slug)
        return agents.rollback(session, agent, version, by="cli").number

    number = in_session(as_json, action)
    emit(
        {"slug": slug, "version": number, "restored": version},
        as_json,
        human=f"{slug} version {version} published again as version {number}",
    )


@key_app.command("create")
def key_create(
    workspace: WorkspaceOpt,
    agent: Annotated[str | None, typer.Option(help="Agent slug: makes a channel key.")] = None,
    env: Annotated[str, typer.Option(help="production or draft")] = "production",
    scope: Annotated[list[str] | None, typer.Option(help="chat, decide, guardrails:review")] = None,
    rpm: Annotated[int | None, typer.Option(help="Requests per minute.")] = None,
    as_json: Json = False,
) -> None:
    """A key; the secret is printed once."""

    def action(session: Any) -> Any:
        ws = workspaces.find_workspace(session, workspace)
        agent_id = agents.get_agent(session, ws.id, agent).id if agent else None
        return workspaces.create_key(session, ws, agent_id=agent_id, env=env, scopes=scope, rpm=rpm)

    issued = in_session(as_json, action)
    row = issued.row
    emit(
        {
            "key": issued.secret,
            "id": row.id,
            "env": row.env,
            "scopes": list(row.scopes),
            "rpm": row.rpm,
            "agent_id": row.agent_id,
        },
        as_json,
        human=issued.secret,
    )


@key_app.command("revoke")
def key_revoke(key_id: str, workspace: WorkspaceOpt, as_json: Json = False) -> None:
    row = in_session(
        as_json, lambda s: workspaces.revoke_key(s, workspaces.find_workspace(s, workspace), key_id)
    )
    emit({"id": row.id, "revoked": True}, as_json, human=f"revoked {row.id}")


@runs_app.command("show")
def runs_show(run_id: str, as_json: Json = False) -> None:
    """A run's trace: each stage with its start, duration and outcome."""
    view = in_session(as_json, lambda s: run_view(s, run_id)).model_dump(mode="json")
    human = "\n".join(
        [f"run {view['id']} · {view['status']} · {view['duration_ms']} ms · ${view['cost_usd']}"]
        + [
            f"  {st['name']:<18} {st['duration_ms']:>9.3f} ms  {st['outcome']}"
            for st in view["stages"]
        ]
    )
    emit(view, as_json, human=human)


def _conversation_action(workspace: str, conversation_id: str, action: Any) -> Any:
    def run(session: Any) -> Any:
        ws = workspaces.find_workspace(session, workspace)
        return action(session, conversations.get_conversation(session, ws.id, conversation_id))

    return run


@conversation_app.command("show")
def conversation_show(conversation_id: str, workspace: WorkspaceOpt, as_json: Json = False) -> None:
    view = in_session(
        as_json,
        _conversation_action(
            workspace,
            conversation_id,
            lambda s, c: conversations.conversation_view(s, c, users.name_of(s, c.assigned_to)),
        ),
    )
    emit(view.model_dump(mode="json"), as_json)


def _set_handoff(workspace: str, conversation_id: str, handoff: bool, as_json: bool) -> None:
    row = in_session(
        as_json,
        _conversation_action(
            workspace, conversation_id, lambda s, c: conversations.set_handoff(s, c, handoff)
        ),
    )
    emit({"id": row.id, "handoff": row.handoff}, as_json)


@conversation_app.command("handoff")
def conversation_handoff(
    conversation_id: str, workspace: WorkspaceOpt, as_json: Json = False
) -> None:
    """A human takes the conversation."""
    _set_handoff(workspace, conversation_id, True, as_json)


@conversation_app.command("release")
def conversation_release(
    conversation_id: str, workspace: WorkspaceOpt, as_json: Json = False
) -> None:
    """The agent answers the conversation again."""
    _set_handoff(workspace, conversation_id, False, as_json)


@conversation_app.command("reply")
def conversation_reply(
    conversation_id: str, text: str, workspace: WorkspaceOpt, as_json: Json = False
) -> None:
    """Posts an operator reply into the conversation."""
    row = in_session(
        as_json,
        _conversation_action(
            workspace,
            conversation_id,
            lambda s, c: conversations.add_operator_reply(s, c, text),
        ),
    )
    emit({"id": row.id, "role": row.role, "content": row.content}, as_json)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
