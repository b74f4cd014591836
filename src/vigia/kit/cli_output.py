"""How CLI commands print: one JSON object with ``--json``, readable lines otherwise."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

from vigia.errors import VigiaError


def emit(payload: dict[str, Any], as_json: bool, human: str | None = None) -> None:
    """Prints ``payload`` as one JSON object on stdout, or ``human`` text."""
    if as_json:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, default=str) + "\n")
    else:
        typer.echo(human if human is not None else json.dumps(payload, indent=2, default=str))


def fail(error: VigiaError, as_json: bool) -> NoReturn:
    """Prints the error (as ``{"detail", "error"}`` with ``--json``) and exits 1."""
    if as_json:
        sys.stdout.write(json.dumps({"detail": error.detail, "error": error.code}) + "\n")
    else:
        typer.echo(f"error: {error.detail}", err=True)
    raise typer.Exit(code=1)
