"""Agents: create, edit the draft, publish versions, delete, and resolve what a key runs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from vigia.agents.models import Agent, AgentVersion
from vigia.agents.schemas import AgentConfig, AgentCreate, AgentPatch
from vigia.errors import Conflict, NotFound
from vigia.kit.cache import LRUCache
from vigia.workspaces.models import Workspace
from vigia.workspaces.settings_cache import get_settings_cache
from vigia.workspaces.upstream import check_model


def create_agent(session: Session, workspace: Workspace, spec: AgentCreate) -> Agent:
    """A new agent with its draft; external agents are published at once."""
    exists = session.scalars(
        select(Agent).where(Agent.workspace_id == workspace.id, Agent.slug == spec.slug)
    ).first()
    if exists:
        raise Conflict(f"agent '{spec.slug}' already exists in this workspace")
    config = AgentConfig()
    config = _apply(config, spec)
    check_model(session, workspace.id, config.model)
    if not config.name:
        config = config.model_copy(update={"name": spec.slug})
    agent = Agent(
        workspace_id=workspace.id, slug=spec.slug, kind=spec.kind, draft=config.model_dump()
    )
    session.add(agent)
    session.flush()
    if spec.kind == "external":
        publish(session, agent)
    return agent


def _apply(config: AgentConfig, patch: AgentPatch) -> AgentConfig:
    """``config`` with ``patch``'s fields. A new language also moves every reply that is
    still the old language's default to the new one's, whether the patch repeats it or not
    (the console's form posts every reply with the language)."""
    changes = patch.model_dump(exclude_unset=True, exclude_none=True, exclude={"slug", "kind"})
    merged = config.model_dump()
    merged.update(changes)
    updated = AgentConfig.model_validate(merged)
    if updated.language == config.language:
        return updated
    replies = updated.replies.in_language(config.language, updated.language)
    return updated.model_copy(update={"replies": replies})


def get_agent(session: Session, workspace_id: str, slug: str) -> Agent:
    """An agent of the workspace by slug; other workspaces' agents are simply not found."""
    agent = session.scalars(
        select(Agent).where(
            Agent.workspace_id == workspace_id, Agent.slug == slug, Agent.deleted_at.is_(None)
        )
    ).first()
    if agent is None:
        raise NotFound(f"agent '{slug}' not found")
    return agent


class AgentRow(Protocol):
    """What turns read of an agent: an ORM ``Agent`` or a Core row of the agents table."""

    @property
    def id(self) -> str: ...

    @property
    def slug(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def workspace_id(self) -> str: ...

    @property
    def draft(self) -> dict[str, Any]: ...

    @property
    def published_version(self) -> int | None: ...


def draft_config(agent: AgentRow) -> AgentConfig:
    """The agent's draft configuration, parsed (other domains read it here, never the column)."""
    return AgentConfig.model_validate(agent.draft)


def find_agent_row(
    session: Session, workspace_id: str, *, slug: str | None = None, agent_id: str | None = None
) -> AgentRow | None:
    """An agent of the workspace by slug or id, for a turn (the per-turn hot path): one Core
    query, cached while no agent or workspace changes (``vigia.workspaces.settings_cache``)."""

    def load() -> AgentRow | None:
        c = Agent.__table__.c
        query = select(c.id, c.slug, c.kind, c.workspace_id, c.draft, c.published_version).where(
            c.workspace_id == workspace_id, c.deleted_at.is_(None)
        )
        query = query.where(c.slug == slug) if slug is not None else query.where(c.id == agent_id)
        return session.connection().execute(query).first()

    return get_settings_cache().lookup(("agent", workspace_id, slug, agent_id), load)


def list_agents(session: Session, workspace_id: str) -> list[Agent]:
    """The workspace's agents by slug; deleted ones are not listed."""
    return list(
        session.scalars(
            select(Agent)
            .where(Agent.workspace_id == workspace_id, Agent.deleted_at.is_(None))
            .order_by(Agent.slug)
        )
    )


def agent_slugs(session: Session, workspace_id: str) -> dict[str, str]:
    """Every agent's slug by id, deleted ones included: how stored runs and conversations,
    which outlive their agent, name it."""
    rows = session.execute(
        select(Agent.id, Agent.slug).where(Agent.workspace_id == workspace_id)
    ).all()
    return {row.id: row.slug for row in rows}


def update_draft(session: Session, agent: Agent, patch: AgentPatch) -> Agent:
    """Edits the draft; published versions are untouched."""
    config = _apply(draft_config(agent), patch)
    if patch.model is not None:
        check_model(session, agent.workspace_id, config.model)
    agent.draft = config.model_dump()
    session.flush()
    return agent


def draft_number(agent: AgentRow) -> int:
    """The draft's version number: the one publishing it would give (last published + 1)."""
    return (agent.published_version or 0) + 1


def publish(session: Session, agent: Agent, by: str | None = None) -> AgentVersion:
    """Freezes the draft as the next version number and makes it the published one;
    ``by`` names who published it (a console user, ``cli``, ``admin-api``)."""
    number = draft_number(agent)
    version = AgentVersion(
        agent_id=agent.id, number=number, config=dict(agent.draft), published_by=by
    )
    session.add(version)
    agent.published_version = number
    session.flush()
    return version


def get_version(session: Session, agent: Agent, number: int) -> AgentVersion:
    """Published version ``number`` of the agent, or 404."""
    found = session.scalars(
        select(AgentVersion).where(AgentVersion.agent_id == agent.id, AgentVersion.number == number)
    ).first()
    if found is None:
        raise NotFound(f"agent '{agent.slug}' has no version {number}")
    return found


def rollback(session: Session, agent: Agent, number: int, by: str | None = None) -> AgentVersion:
    """Publishes version ``number`` again as the next version: its configuration and the
    knowledge it read (its moment), so production answers as it did; the draft is kept."""
    old = get_version(session, agent, number)
    version = AgentVersion(
        agent_id=agent.id,
        number=draft_number(agent),
        config=dict(old.config),
        knowledge_at=old.knowledge_at or old.created_at,
        published_by=by,
    )
    session.add(version)
    agent.published_version = version.number
    session.flush()
    return version


@dataclass(frozen=True)
class ResolvedAgent:
    """The config a key runs: the published version (production) or the draft.

    ``version`` is the published number, or the draft's number for draft keys (the one
    its publish would get); ``env`` says which of the two it is.
    """

    agent: AgentRow
    config: AgentConfig
    version: int
    env: str


_VERSIONS: LRUCache[tuple[str, str, int], AgentConfig] = LRUCache(2048)
"""Published versions never change: their configs are parsed once per database."""


def _version_config(session: Session, agent: AgentRow, number: int) -> AgentConfig:
    def load() -> AgentConfig:
        row = session.scalars(
            select(AgentVersion).where(
                AgentVersion.agent_id == agent.id, AgentVersion.number == number
            )
        ).one()
        return AgentConfig.model_validate(row.config)

    return _VERSIONS.get_or_put((str(session.get_bind().engine.url), agent.id, number), load)


def resolve(session: Session, agent: AgentRow, env: str) -> ResolvedAgent:
    """What ``env`` runs for ``agent``; production needs a published version."""
    if env == "draft":
        config = draft_config(agent)
        return ResolvedAgent(agent, config, draft_number(agent), "draft")
    if agent.published_version is None:
        raise NotFound(
            f"agent '{agent.slug}' has no published version yet: publish it or use a draft key"
        )
    config = _version_config(session, agent, agent.published_version)
    return ResolvedAgent(agent, config, agent.published_version, "production")


def version_moment(version: AgentVersion) -> datetime:
    """The moment whose knowledge ``version`` reads (docs/knowledge.md "Versions")."""
    return version.knowledge_at or version.created_at


_MOMENTS: LRUCache[tuple[str, str, int], datetime] = LRUCache(4096)


def published_moment(session: Session, agent_id: str, number: int) -> datetime:
    """The knowledge moment of published version ``number`` of the agent."""

    def load() -> datetime:
        version = session.scalars(
            select(AgentVersion).where(
                AgentVersion.agent_id == agent_id, AgentVersion.number == number
            )
        ).one()
        return version_moment(version)

    return _MOMENTS.get_or_put((str(session.get_bind().engine.url), agent_id, number), load)


def moment_read_between(
    session: Session, workspace_id: str, since: datetime, until: datetime
) -> bool:
    """Whether a published version of the workspace reads knowledge of a moment in
    [since, until)."""
    moment = func.coalesce(AgentVersion.knowledge_at, AgentVersion.created_at)
    found = session.scalar(
        select(func.count())
        .select_from(AgentVersion)
        .join(Agent, Agent.id == AgentVersion.agent_id)
        .where(Agent.workspace_id == workspace_id, moment >= since, moment < until)
    )
    return bool(found)


@dataclass(frozen=True)
class PublishedKnowledge:
    """What the published version reads: its bases, as of its moment."""

    knowledge_bases: list[str]
    moment: datetime


def published_knowledge(session: Session, agent: AgentRow) -> PublishedKnowledge | None:
    """The published version's bases and moment; None before the first publish."""
    if agent.published_version is None:
        return None
    version = session.scalars(
        select(AgentVersion).where(
            AgentVersion.agent_id == agent.id, AgentVersion.number == agent.published_version
        )
    ).one()
    config = AgentConfig.model_validate(version.config)
    return PublishedKnowledge(config.knowledge_bases, version_moment(version))


def list_versions(session: Session, agent_id: str) -> list[AgentVersion]:
    """Every published version of the agent, newest first."""
    return list(
        session.scalars(
            select(AgentVersion)
            .where(AgentVersion.agent_id == agent_id)
            .order_by(AgentVersion.number.desc())
        )
    )
