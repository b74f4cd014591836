"""Mounts the console on the app: its routes, its static files and its error pages."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from vigia.console import (
    agents,
    conversations,
    errors,
    evaluation,
    keys,
    knowledge,
    login,
    playground,
    secrets,
    usage,
)

PREFIX = "/console"
STATIC = Path(__file__).parent / "static"
ERROR_PAGES = {PREFIX: errors.render}
"""For ``http_errors.install``: errors under ``/console`` are pages, not JSON."""


def mount(app: FastAPI) -> None:
    """Adds every console route and ``/console/static`` to ``app``."""
    modules = (
        login,
        agents,
        playground,
        knowledge,
        keys,
        secrets,
        conversations,
        usage,
        evaluation,
    )
    for module in modules:
        app.include_router(module.router)
    app.mount(f"{PREFIX}/static", StaticFiles(directory=STATIC), name="console-static")
