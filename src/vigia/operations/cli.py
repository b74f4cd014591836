"""``vigia backup``, ``vigia restore`` and ``vigia purge`` (contract: shared CLI table)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from vigia.config import get_settings
from vigia.db.migrate import upgrade
from vigia.errors import Invalid, VigiaError
from vigia.kit.cli_output import emit, fail
from vigia.operations import backup as backups
from vigia.operations import retention

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


def purge(
    before: Annotated[
        str | None,
        typer.Option(help="ISO date: purge what is older (default: VIGIA_RETENTION_DAYS ago)."),
    ] = None,
    as_json: Json = False,
) -> None:
    """Deletes conversations, runs (with stages) and reviews older than a date."""
    try:
        if before is not None:
            cutoff = retention.cutoff_of(before)
        elif (days := get_settings().retention_days) is not None:
            cutoff = retention.retention_cutoff(days)
        else:
            raise Invalid("give --before DATE or set VIGIA_RETENTION_DAYS")
        upgrade()
        result = retention.purge_before(cutoff)
    except VigiaError as error:
        fail(error, as_json)
    human = ", ".join(f"{k}: {v}" for k, v in result.items())
    emit(result, as_json, human=f"purged {human}")


def register(app: typer.Typer) -> None:
    """Adds the operations commands to the ``vigia`` command line."""
    app.command("backup")(backup)
    app.command("restore")(restore)
    app.command("purge")(purge)
