"""Mounts the console on the app: its routes, its static files and its error pages."""

from __future__ import annotations

from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles

from vigia.console import (
    agents,
    conversation_list,
    conversations,
    errors,
    evaluation,
    evaluation_cases,
    keys,
    knowledge,
    login,
    playground,
    secrets,
    usage,
    users,
    versions,
)
from vigia.console.security import require_csrf

PREFIX = "/console"
STATIC = Path(__file__).parent / "static"
ERROR_PAGES = {PREFIX: errors.render}
"""For ``http_errors.install``: errors under ``/console`` are pages, not JSON."""


def mount(app: FastAPI) -> None:
    """Adds every console route and ``/console/static`` to ``app``; every route depends on
    the CSRF check (writes only), so no post can be added without it."""
    modules = (
        login,
        agents,
        versions,
        playground,
        knowledge,
        keys,
        secrets,
        conversation_list,
        conversations,
        usage,
        evaluation,
        evaluation_cases,
        users,
    )
    for module in modules:
        app.include_router(module.router, dependencies=[Depends(require_csrf)])
    app.mount(f"{PREFIX}/static", StaticFiles(directory=STATIC), name="console-static")
