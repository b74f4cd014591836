"""An agent's published versions: one version's configuration, read-only, against the one
in production, and the rollback that publishes it again (its configuration and the
knowledge it read) through ``agents.service.rollback``."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path, Request
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.agents.schemas import AgentConfig
from vigia.console.access import Configurer, Reader
from vigia.console.agent_diff import draft_diff
from vigia.console.rendering import page
from vigia.console.responses import see_other
from vigia.http.deps import Db

router = APIRouter(prefix="/console/w/{ws}/agents/{slug}/versions", include_in_schema=False)
Number = Annotated[int, Path(ge=1, le=2_147_483_647)]


@router.get("/{number}")
def version_page(request: Request, slug: str, number: Number, access: Reader, db: Db) -> Response:
    """Version ``number``: who published it and when, what a rollback to it would change in
    production, and its whole configuration."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    version = agents.get_version(db, agent, number)
    config = AgentConfig.model_validate(version.config)
    live = agents.resolve(db, agent, "production").config if agent.published_version else None
    return page(
        request,
        "agent_version.html",
        access=access,
        section="agents",
        agent=agent,
        version=version,
        moment=agents.version_moment(version),
        config_json=json.dumps(
            config.model_dump(mode="json"), indent=2, sort_keys=True, ensure_ascii=False
        ),
        diff=draft_diff(live, config),
    )


@router.post("/{number}/rollback")
def rollback(slug: str, number: Number, access: Configurer, db: Db) -> Response:
    """Publishes an earlier version again, with the knowledge it read."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    agents.rollback(db, agent, number, by=access.user.name)
    return see_other(f"{access.base}/agents/{slug}?restored={number}")
