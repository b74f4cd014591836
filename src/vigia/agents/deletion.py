"""Deleting an agent: it leaves every list and lookup, its keys stop working, its data stays."""

from __future__ import annotations

from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.db.base import utcnow
from vigia.workspaces import service as workspaces
from vigia.workspaces.models import Workspace

MAX_SLUG = 64


def deleted_slug(agent: Agent) -> str:
    """The slug a deleted agent keeps, ``<slug>~<first 8 of its id>``: it names the agent in
    the runs and conversations it leaves and frees its slug for a new agent."""
    tail = f"~{agent.id[:8]}"
    return agent.slug[: MAX_SLUG - len(tail)] + tail


def delete_agent(session: Session, workspace: Workspace, agent: Agent) -> int:
    """Deletes ``agent``: its channel keys are revoked (returns how many), it is no longer
    found by slug or id (``/v1/models``, the console, the admin API), and its slug is free.
    Its versions, conversations, runs, reviews and evaluation cases are kept; the retention
    purge removes conversations and runs as it does any agent's (docs/operations.md)."""
    revoked = workspaces.revoke_agent_keys(session, workspace, agent.id)
    agent.slug = deleted_slug(agent)
    agent.deleted_at = utcnow()
    session.flush()
    return revoked
