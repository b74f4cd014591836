"""`vigia world …` commands (CLI.md: add, index)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from sqlalchemy.orm import Session

from vigia.db.cli_session import in_session
from vigia.db.migrate import upgrade
from vigia.db.session import session_scope
from vigia.errors import Invalid, VigiaError
from vigia.kit.cli_output import emit, fail
from vigia.workspaces.models import Workspace
from vigia.workspaces.service import find_workspace, list_workspaces
from vigia.worlds.access import assign, unassigned
from vigia.worlds.catalog import add_world, get_world, list_worlds
from vigia.worlds.ingest.indexer import index_world

world_app = typer.Typer(help="Document worlds", no_args_is_help=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object")]


WorkspaceOpt = Annotated[
    str | None, typer.Option("--workspace", help="Workspace id or name that owns the world")
]


def _owner(session: Session, workspace: str | None) -> Workspace | None:
    """The named workspace; unnamed, the only one there is (None when there are several)."""
    if workspace is not None:
        return find_workspace(session, workspace)
    every = list_workspaces(session)
    return every[0] if len(every) == 1 else None


def _unassigned_note(world_id: str) -> str:
    return (
        f"world {world_id} belongs to no workspace, so nobody can reach it: "
        f"run `vigia world assign {world_id} --workspace W`"
    )


@world_app.command("add")
def world_add(
    world_id: Annotated[str, typer.Argument(metavar="ID")],
    path: Annotated[str, typer.Argument(metavar="PATH")],
    workspace: WorkspaceOpt = None,
    as_json: JsonFlag = False,
) -> None:
    """Registers folder PATH as world ID of a workspace (--workspace; by default the only
    workspace there is). Only users with a role in it can chat over the world."""

    def action(session: Session) -> dict[str, Any]:
        owner = _owner(session, workspace)
        world = add_world(session, world_id, path, owner.id if owner else None)
        return {"id": world.id, "path": world.path, "workspace": owner.name if owner else None}

    payload = in_session(as_json, action)
    human = f"world {payload['id']} → {payload['path']}"
    if payload["workspace"] is None:
        print(_unassigned_note(world_id), file=sys.stderr)
    emit(payload, as_json, human + (f" ({payload['workspace']})" if payload["workspace"] else ""))


@world_app.command("assign")
def world_assign(
    world_ids: Annotated[list[str] | None, typer.Argument(metavar="[ID]...")] = None,
    workspace: Annotated[
        str, typer.Option("--workspace", help="Workspace id or name that gets the worlds")
    ] = "",
    as_json: JsonFlag = False,
) -> None:
    """Gives worlds ID… (by default every world no workspace owns) to --workspace."""

    def action(session: Session) -> dict[str, Any]:
        if not workspace:
            raise Invalid("name the workspace with --workspace")
        owner = find_workspace(session, workspace)
        worlds = [get_world(session, i) for i in world_ids] if world_ids else unassigned(session)
        moved = assign(session, worlds, owner.id)
        return {"workspace": owner.name, "worlds": [w.id for w in moved]}

    payload = in_session(as_json, action)
    emit(
        payload,
        as_json,
        f"{len(payload['worlds'])} worlds now belong to {payload['workspace']}"
        + "".join(f"\n  {w}" for w in payload["worlds"]),
    )


PHASES = {"read": "files read", "embed": "passages embedded"}
PLAIN_STEPS = 10


class IndexProgress:
    """Progress of ``vigia world index`` on stderr: bars on a terminal, otherwise plain
    lines (one per tenth of each phase, so logs stay short)."""

    def __init__(self, world_id: str, console: Console) -> None:
        self.world_id = world_id
        self.console = console
        self.bar: Progress | None = None
        self.tasks: dict[str, TaskID] = {}
        self.printed: dict[str, int] = {}
        if console.is_terminal:
            self.bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
            )

    def __enter__(self) -> IndexProgress:
        if self.bar is not None:
            self.bar.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()

    def __call__(self, phase: str, done: int, total: int) -> None:
        what = PHASES.get(phase, phase)
        if self.bar is not None:
            if phase not in self.tasks:
                self.tasks[phase] = self.bar.add_task(f"{self.world_id}: {what}", total=total)
            self.bar.update(self.tasks[phase], completed=done, total=total)
            return
        step = done * PLAIN_STEPS // max(total, 1)
        if step > self.printed.get(phase, -1) or done == total:
            if self.printed.get(phase) == PLAIN_STEPS:
                return
            self.printed[phase] = PLAIN_STEPS if done == total else step
            print(f"{self.world_id}: {done}/{total} {what}", file=sys.stderr, flush=True)


@world_app.command("index")
def world_index(
    world_id: Annotated[str, typer.Argument(metavar="ID")],
    as_json: JsonFlag = False,
) -> None:
    """(Re)indexes world ID; only changed files are read. Progress goes to stderr: a bar
    on a terminal, plain lines otherwise."""
    try:
        upgrade()
        with (
            session_scope() as session,
            IndexProgress(world_id, Console(stderr=True)) as progress,
        ):
            report = index_world(session, get_world(session, world_id), progress)
    except VigiaError as exc:
        fail(exc, as_json)
    payload = {
        "id": report.id,
        "files": report.files,
        "lines": report.lines,
        "seconds": report.seconds,
        "changed": report.changed,
        "removed": report.removed,
        "lines_read": report.lines_read,
    }
    emit(
        payload,
        as_json,
        f"{report.id}: {report.files} files, {report.lines} lines "
        f"({report.changed} re-read) in {report.seconds:.2f}s",
    )


@world_app.command("list")
def world_list(as_json: JsonFlag = False) -> None:
    """Lists registered worlds."""
    worlds = [
        {
            "id": w.id,
            "path": w.path,
            "workspace_id": w.workspace_id,
            "files": w.files,
            "lines": w.lines,
            "indexed_at": w.indexed_at,
        }
        for w in in_session(as_json, list_worlds)
    ]
    emit({"worlds": worlds}, as_json, "\n".join(f"{w['id']}\t{w['path']}" for w in worlds))
