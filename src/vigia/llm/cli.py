"""`vigia model …` commands: register the GGUF files local agents may name."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer

from vigia.errors import VigiaError
from vigia.kit.cli_output import emit, fail
from vigia.llm.local_catalog import add_model, registered_models

app = typer.Typer(help="Local model files (GGUF) for the local provider", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]


@app.command("add")
def add(
    path: Annotated[Path, typer.Argument(help="A GGUF file on this machine.")],
    sha256: Annotated[
        str, typer.Option("--sha256", help="The SHA-256 its publisher states (64 hex).")
    ],
    as_json: Json = False,
) -> None:
    """Registers a GGUF file once its SHA-256 matches the one stated (exit 1 otherwise)."""
    try:
        entry = add_model(path, sha256)
    except VigiaError as error:
        fail(error, as_json)
    emit(asdict(entry), as_json, human=f"registered {entry.path} ({entry.size} bytes)")


@app.command("list")
def list_models(as_json: Json = False) -> None:
    """The registered model files."""
    models = [asdict(m) for m in registered_models()]
    human = "\n".join(f"{m['path']}  {m['sha256']}" for m in models) or "no model registered"
    emit({"models": models}, as_json, human=human)
