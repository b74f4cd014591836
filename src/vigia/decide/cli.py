"""`vigia decide …` commands (placeholder until the domain lands)."""

import typer

app = typer.Typer(help="Decisions: quotas and checks", no_args_is_help=True)
