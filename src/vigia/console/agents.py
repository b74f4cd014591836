"""Agentes: the list, an agent's configuration (draft, diff, publish, versions, rollback) and
its page."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi import Form as Field
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentConfig, AgentCreate
from vigia.console.access import Access, Configurer, Reader
from vigia.console.agent_form import (
    GUARDRAILS,
    MODES,
    REPLIES,
    draft_diff,
    patch_from,
    problems,
    tools_text,
    topics_text,
)
from vigia.console.rendering import page
from vigia.console.responses import Checked, Form, see_other
from vigia.errors import VigiaError
from vigia.http.deps import Db
from vigia.knowledge import service as knowledge
from vigia.knowledge.changes import pending_changes
from vigia.workspaces import secrets

router = APIRouter(prefix="/console/w/{ws}/agents", include_in_schema=False)


def _list_page(
    request: Request, access: Access, db: Session, *, status: int = 200, error: str | None = None
) -> Response:
    """The list of the workspace's agents, with ``error`` above it when a creation failed."""
    rows = agents.list_agents(db, access.workspace.id)
    return page(
        request,
        "agents.html",
        status=status,
        access=access,
        agents=rows,
        error=error,
        section="agents",
    )


@router.get("")
def agent_list(request: Request, access: Reader, db: Db) -> Response:
    return _list_page(request, access, db)


@router.post("", dependencies=Checked)
def create_agent(
    request: Request,
    access: Configurer,
    db: Db,
    slug: Annotated[str, Field(max_length=64)],
    name: Annotated[str, Field(max_length=120)] = "",
) -> Response:
    """A new agent (a draft with the recommended guardrails); opens its page."""
    try:
        spec = AgentCreate(slug=slug.strip(), name=name.strip() or None)
        agent = agents.create_agent(db, access.workspace, spec)
    except (ValidationError, VigiaError) as error:
        detail = "; ".join(problems(error)) if isinstance(error, ValidationError) else error.detail
        status = 422 if isinstance(error, ValidationError) else error.status
        return _list_page(request, access, db, status=status, error=detail)
    return see_other(f"{access.base}/agents/{agent.slug}")


def _published(db: Session, agent: Agent) -> AgentConfig | None:
    if agent.published_version is None:
        return None
    return agents.resolve(db, agent, "production").config


def _agent_page(
    request: Request,
    access: Access,
    db: Session,
    agent: Agent,
    *,
    status: int = 200,
    errors: list[str] | None = None,
    saved: bool = False,
    model_error: str | None = None,
) -> Response:
    draft = agents.draft_config(agent)
    published = _published(db, agent)
    knowledge_changes = pending_changes(db, agent) if agent.kind == "internal" else []
    return page(
        request,
        "agent.html",
        status=status,
        access=access,
        section="agents",
        agent=agent,
        draft=draft,
        topics=topics_text(draft),
        tools=tools_text(draft),
        diff=draft_diff(published, draft) if agent.kind == "internal" else [],
        knowledge_changes=knowledge_changes,
        unpublished=published is None or published != draft or bool(knowledge_changes),
        versions=agents.list_versions(db, agent.id),
        knowledge_bases=knowledge.list_knowledge_bases(db, access.workspace),
        guardrails=GUARDRAILS,
        modes=MODES,
        replies=REPLIES,
        errors=errors or [],
        saved=saved,
        secret_names=secrets.secret_names(db, access.workspace.id),
        model_error=model_error,
    )


@router.get("/{slug}")
def agent_page(
    request: Request, slug: str, access: Reader, db: Db, saved: bool = False
) -> Response:
    agent = agents.get_agent(db, access.workspace.id, slug)
    return _agent_page(request, access, db, agent, saved=saved)


@router.post("/{slug}/draft", dependencies=Checked)
def save_draft(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """Saves the form as the draft; production keys keep the published version."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    try:
        patch = patch_from(form)
    except ValidationError as error:
        return _agent_page(request, access, db, agent, status=422, errors=problems(error))
    mine = {kb.id for kb in knowledge.list_knowledge_bases(db, access.workspace)}
    if patch.knowledge_bases and not set(patch.knowledge_bases) <= mine:
        return _agent_page(request, access, db, agent, status=422, errors=["knowledge_bases"])
    try:
        agents.update_draft(db, agent, patch)
    except VigiaError as error:
        return _agent_page(
            request, access, db, agent, status=error.status, model_error=error.detail
        )
    return see_other(f"{access.base}/agents/{slug}?saved=true")


@router.post("/{slug}/publish", dependencies=Checked)
def publish(slug: str, access: Configurer, db: Db) -> Response:
    """Freezes the draft as the next version."""
    agents.publish(db, agents.get_agent(db, access.workspace.id, slug))
    return see_other(f"{access.base}/agents/{slug}")


@router.post("/{slug}/versions/{number}/rollback", dependencies=Checked)
def rollback(
    slug: str,
    number: Annotated[int, Path(ge=1, le=2_147_483_647)],
    access: Configurer,
    db: Db,
) -> Response:
    """Publishes an earlier version again, with the knowledge it read."""
    agents.rollback(db, agents.get_agent(db, access.workspace.id, slug), number)
    return see_other(f"{access.base}/agents/{slug}")
