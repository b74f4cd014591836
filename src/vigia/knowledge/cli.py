"""`vigia knowledge …` commands (placeholder until the domain lands)."""

import typer

app = typer.Typer(help="Knowledge bases and documents", no_args_is_help=True)
