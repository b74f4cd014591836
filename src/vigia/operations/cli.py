"""``vigia backup``, ``vigia restore`` and ``vigia purge`` (contract: shared CLI table)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from vigia.cli_output import emit, fail
from vigia.errors import VigiaError
from vigia.operations import backup as backups

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


def backup(
    path: Annotated[Path, typer.Argument(help="A new or empty folder for the backup.")],
    as_json: Json = False,
) -> None:
    """Online backup of the database (SQLite) and the data directory's files."""
    try:
        result = backups.backup(path)
    except VigiaError as error:
        fail(error, as_json)
    emit(result, as_json, human=f"backup written to {result['path']}")


def restore(
    path: Annotated[Path, typer.Argument(help="A folder written by `vigia backup`.")],
    as_json: Json = False,
) -> None:
    """Restores a backup into the configured data directory, which must be empty."""
    try:
        result = backups.restore(path)
    except VigiaError as error:
        fail(error, as_json)
    emit(result, as_json, human=f"restored into {result['path']}")


def register(app: typer.Typer) -> None:
    """Adds the operations commands to the ``vigia`` command line."""
    app.command("backup")(backup)
    app.command("restore")(restore)
