"""`vigia world …` commands (CLI.md: add, index)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from vigia.cli_output import emit, fail, in_session
from vigia.db.migrate import upgrade
from vigia.db.session import session_scope
from vigia.errors import VigiaError
from vigia.worlds.catalog import add_world, get_world, list_worlds
from vigia.worlds.indexer import index_world

world_app = typer.Typer(help="Document worlds", no_args_is_help=True)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object")]


@world_app.command("add")
def world_add(
    world_id: Annotated[str, typer.Argument(metavar="ID")],
    path: Annotated[str, typer.Argument(metavar="PATH")],
    as_json: JsonFlag = False,
) -> None:
    """Registers folder PATH as world ID."""
    world = in_session(as_json, lambda session: add_world(session, world_id, path))
    emit({"id": world.id, "path": world.path}, as_json, f"world {world.id} → {world.path}")


@world_app.command("index")
def world_index(
    world_id: Annotated[str, typer.Argument(metavar="ID")],
    as_json: JsonFlag = False,
) -> None:
    """(Re)indexes world ID; only changed files are read. Progress goes to stderr."""
    console = Console(stderr=True)
    try:
        upgrade()
        with (
            session_scope() as session,
            Progress(
                TextColumn("indexing {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=not console.is_terminal,
            ) as bar,
        ):
            task = bar.add_task(world_id, total=None)

            def progress(done: int, total: int, path: str) -> None:
                bar.update(task, completed=done, total=total, description=path[-50:])

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
        {"id": w.id, "path": w.path, "files": w.files, "lines": w.lines, "indexed_at": w.indexed_at}
        for w in in_session(as_json, list_worlds)
    ]
    emit({"worlds": worlds}, as_json, "\n".join(f"{w['id']}\t{w['path']}" for w in worlds))
