"""Agentes: the list, an agent's page (draft, diff, publish, optionally gated by its
evaluation cases, the versions) and deleting an agent; both pages say when the workspace's
budget has paused its agents. One version's page and the rollback are
``vigia.console.versions``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.agents.deletion import delete_agent
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentConfig, AgentCreate, AgentPatch
from vigia.console.access import Access, Configurer, Reader
from vigia.console.agent_diff import draft_diff
from vigia.console.agent_form import (
    CHOICES,
    GUARDRAILS,
    LIMITS,
    MODES,
    REPLIES,
    form_errors,
    patch_from,
    values_from,
    values_of,
)
from vigia.console.field_errors import FieldErrors, field_errors, one
from vigia.console.form_limits import Bounds, bounds
from vigia.console.form_values import FormValues
from vigia.console.playground import MAX_MESSAGE
from vigia.console.publish_gate import GateRefusal, gated_publish
from vigia.console.rendering import page
from vigia.console.responses import Form, see_other, text
from vigia.engine import budget_state
from vigia.errors import Conflict, VigiaError
from vigia.http.deps import Db
from vigia.knowledge import service as knowledge
from vigia.knowledge.changes import pending_changes
from vigia.workspaces import secrets

router = APIRouter(prefix="/console/w/{ws}/agents", include_in_schema=False)


def _list_page(
    request: Request,
    access: Access,
    db: Session,
    *,
    status: int = 200,
    errors: FieldErrors | None = None,
    typed: FormValues | None = None,
    deleted: str = "",
) -> Response:
    """The list of the workspace's agents; a creation that failed shows its ``errors`` next
    to the fields, which keep what was ``typed`` (``deleted``: the slug of an agent just
    deleted, for the notice)."""
    rows = agents.list_agents(db, access.workspace.id)
    return page(
        request,
        "agents.html",
        status=status,
        access=access,
        agents=rows,
        errors=errors or {},
        typed=typed or FormValues(),
        limits={"slug": bounds(AgentCreate, "slug"), "name": bounds(AgentPatch, "name")},
        deleted=deleted[:64],
        paused=budget_state(db, access.workspace).pauses,
        section="agents",
    )


@router.get("")
def agent_list(request: Request, access: Reader, db: Db, deleted: str = "") -> Response:
    return _list_page(request, access, db, deleted=deleted)


@router.post("")
def create_agent(request: Request, access: Configurer, db: Db, form: Form) -> Response:
    """A new agent (a draft with the recommended guardrails); opens its page. A refusal
    shows the list again with the typed slug and name, the problem next to its field."""
    typed = values_from(form)
    try:
        spec = AgentCreate.model_validate(
            {"slug": text(form, "slug").strip(), "name": text(form, "name").strip() or None}
        )
    except ValidationError as error:
        errors = field_errors(error, overrides={("slug", ""): "invalid.slug"})
        return _list_page(request, access, db, status=422, errors=errors, typed=typed)
    try:
        agent = agents.create_agent(db, access.workspace, spec)
    except Conflict as error:
        errors = one("slug", "invalid.slug_taken")
        return _list_page(request, access, db, status=error.status, errors=errors, typed=typed)
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
    errors: FieldErrors | None = None,
    typed: FormValues | None = None,
    saved: bool = False,
    model_error: str | None = None,
    restored: int | None = None,
    refusal: GateRefusal | None = None,
    delete_error: bool = False,
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
        values=typed if typed is not None else values_of(draft),
        limits={**LIMITS, "message": Bounds(max_length=MAX_MESSAGE)},
        choices=CHOICES,
        diff=draft_diff(published, draft) if agent.kind == "internal" else [],
        knowledge_changes=knowledge_changes,
        unpublished=published is None or published != draft or bool(knowledge_changes),
        versions=agents.list_versions(db, agent.id),
        knowledge_bases=knowledge.list_knowledge_bases(db, access.workspace),
        guardrails=GUARDRAILS,
        modes=MODES,
        replies=REPLIES,
        errors=errors or {},
        saved=saved,
        secret_names=secrets.secret_names(db, access.workspace.id),
        model_error=model_error,
        restored=restored,
        refusal=refusal,
        delete_error=delete_error,
        paused=budget_state(db, access.workspace).pauses,
    )


@router.get("/{slug}")
def agent_page(
    request: Request,
    slug: str,
    access: Reader,
    db: Db,
    saved: bool = False,
    restored: Annotated[int | None, Query(ge=1, le=2_147_483_647)] = None,
) -> Response:
    agent = agents.get_agent(db, access.workspace.id, slug)
    return _agent_page(request, access, db, agent, saved=saved, restored=restored)


@router.post("/{slug}/draft")
def save_draft(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """Saves the form as the draft; production keys keep the published version."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    typed = values_from(form)
    try:
        patch = patch_from(form)
    except ValidationError as error:
        errors = form_errors(error)
        return _agent_page(request, access, db, agent, status=422, errors=errors, typed=typed)
    mine = {kb.id for kb in knowledge.list_knowledge_bases(db, access.workspace)}
    if patch.knowledge_bases and not set(patch.knowledge_bases) <= mine:
        errors = one("knowledge_bases", "invalid.knowledge_base")
        return _agent_page(request, access, db, agent, status=422, errors=errors, typed=typed)
    try:
        agents.update_draft(db, agent, patch)
    except VigiaError as error:
        db.rollback()
        return _agent_page(
            request,
            access,
            db,
            agent,
            status=error.status,
            model_error=error.detail,
            typed=typed,
        )
    return see_other(f"{access.base}/agents/{slug}?saved=true")


@router.post("/{slug}/publish")
def publish(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """Freezes the draft as the next version; with ``require_eval`` checked, only when every
    evaluation case passes on the draft (the page says why when it does not publish)."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    if text(form, "require_eval") != "on":
        agents.publish(db, agent, by=access.user.name)
        return see_other(f"{access.base}/agents/{slug}")
    db.commit()  # the cases run in their own transactions
    refusal = gated_publish(access.workspace.id, slug, by=access.user.name)
    if refusal is not None:
        db.refresh(agent)
        return _agent_page(request, access, db, agent, status=409, refusal=refusal)
    return see_other(f"{access.base}/agents/{slug}")


@router.post("/{slug}/delete")
def delete(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """Deletes the agent once its slug is typed to confirm: its keys are revoked, its
    conversations and runs kept (docs/console.md)."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    if text(form, "confirm").strip() != agent.slug:
        return _agent_page(request, access, db, agent, status=422, delete_error=True)
    delete_agent(db, access.workspace, agent)
    return see_other(f"{access.base}/agents?deleted={slug}")
