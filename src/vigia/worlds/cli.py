"""`vigia world …` and `vigia user …` commands (placeholder until the domain lands)."""

import typer

world_app = typer.Typer(help="Document worlds", no_args_is_help=True)
user_app = typer.Typer(help="Users of the worlds surface", no_args_is_help=True)
