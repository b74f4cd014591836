"""The admin API: workspaces, budgets, agents (draft, publish), keys, runs, handoff."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from vigia.admin import schemas
from vigia.agents import service as agents
from vigia.agents.schemas import (
    AgentCreate,
    AgentList,
    AgentOut,
    AgentPatch,
    PublishedOut,
    RollbackIn,
    RolledBackOut,
)
from vigia.conversations import service as conversations
from vigia.conversations.schemas import ConversationOut, HandoffOut, OperatorReplyOut
from vigia.engine import RunOut, budget_state, month_spend, month_start, run_view
from vigia.http.deps import Admin, Db
from vigia.knowledge.changes import pending_changes
from vigia.knowledge.schemas import KnowledgeChangeList, KnowledgeChangeOut
from vigia.llm.settings import SECRET_NAME
from vigia.users import service as users
from vigia.workspaces import secrets
from vigia.workspaces import service as workspaces
from vigia.workspaces.schemas import (
    BudgetUpdate,
    IssuedKeyOut,
    KeyCreate,
    KeyList,
    KeyOut,
    SecretDeletedOut,
    SecretList,
    SecretOut,
    SecretUpdate,
    WorkspaceList,
    WorkspaceOut,
)

router = APIRouter(prefix="/admin", tags=["admin"])
SecretName = Annotated[str, Path(pattern=SECRET_NAME)]
PUBLISHER = "admin-api"
"""How versions published through this API name who published them."""


@router.post("/workspaces", status_code=201)
def create_workspace(body: schemas.WorkspaceCreate, _: Admin, db: Db) -> WorkspaceOut:
    return WorkspaceOut.model_validate(workspaces.create_workspace(db, body.name))


@router.get("/workspaces")
def list_workspaces(_: Admin, db: Db) -> WorkspaceList:
    rows = workspaces.list_workspaces(db)
    return WorkspaceList(workspaces=[WorkspaceOut.model_validate(w) for w in rows])


@router.put("/workspaces/{workspace}/budget")
def set_budget(workspace: str, body: BudgetUpdate, _: Admin, db: Db) -> WorkspaceOut:
    row = workspaces.set_budget(
        db, workspaces.find_workspace(db, workspace), body.budget_usd, body.action
    )
    return WorkspaceOut.model_validate(row)


@router.put("/workspaces/{workspace}/tool-hosts")
def set_tool_hosts(workspace: str, body: schemas.ToolHostsUpdate, _: Admin, db: Db) -> WorkspaceOut:
    """The hosts the workspace's agent tools may call; private addresses must be listed too."""
    row = workspaces.set_tool_hosts(db, workspaces.find_workspace(db, workspace), body.hosts)
    return WorkspaceOut.model_validate(row)


@router.get("/workspaces/{workspace}/secrets")
def list_secrets(workspace: str, _: Admin, db: Db) -> SecretList:
    """The workspace's secrets: names and dates, never values."""
    ws = workspaces.find_workspace(db, workspace)
    return SecretList(
        secrets=[SecretOut.model_validate(s) for s in secrets.list_secrets(db, ws.id)]
    )


@router.put("/workspaces/{workspace}/secrets/{name}")
def set_secret(workspace: str, name: SecretName, body: SecretUpdate, _: Admin, db: Db) -> SecretOut:
    """Adds or replaces a secret (an upstream key agents name as ``api_key_secret``)."""
    ws = workspaces.find_workspace(db, workspace)
    return SecretOut.model_validate(secrets.set_secret(db, ws.id, name, body.value))


@router.delete("/workspaces/{workspace}/secrets/{name}")
def delete_secret(workspace: str, name: SecretName, _: Admin, db: Db) -> SecretDeletedOut:
    secrets.delete_secret(db, workspaces.find_workspace(db, workspace).id, name)
    return SecretDeletedOut(name=name, deleted=True)


@router.get("/workspaces/{workspace}/usage")
def usage(workspace: str, _: Admin, db: Db) -> schemas.UsageOut:
    """This month's spend against the budget; ``alert`` is true once it is reached."""
    ws = workspaces.find_workspace(db, workspace)
    state = budget_state(db, ws)
    return schemas.UsageOut(
        month_start=month_start(),
        spent_usd=round(month_spend(db, ws.id), 8),
        budget_usd=state.budget_usd,
        action=state.action,
        exhausted=state.exhausted,
        alert=state.alerts,
    )


@router.post("/workspaces/{workspace}/agents", status_code=201)
def create_agent(workspace: str, body: AgentCreate, _: Admin, db: Db) -> AgentOut:
    agent = agents.create_agent(db, workspaces.find_workspace(db, workspace), body)
    return AgentOut.model_validate(agent)


@router.get("/workspaces/{workspace}/agents")
def list_agents(workspace: str, _: Admin, db: Db) -> AgentList:
    ws = workspaces.find_workspace(db, workspace)
    return AgentList(agents=[AgentOut.model_validate(a) for a in agents.list_agents(db, ws.id)])


@router.get("/workspaces/{workspace}/agents/{slug}")
def get_agent(workspace: str, slug: str, _: Admin, db: Db) -> AgentOut:
    ws = workspaces.find_workspace(db, workspace)
    return AgentOut.model_validate(agents.get_agent(db, ws.id, slug))


@router.patch("/workspaces/{workspace}/agents/{slug}")
def update_agent(workspace: str, slug: str, body: AgentPatch, _: Admin, db: Db) -> AgentOut:
    """Edits the draft; production keys keep the published version until publish."""
    ws = workspaces.find_workspace(db, workspace)
    agent = agents.update_draft(db, agents.get_agent(db, ws.id, slug), body)
    return AgentOut.model_validate(agent)


@router.post("/workspaces/{workspace}/agents/{slug}/publish")
def publish_agent(workspace: str, slug: str, _: Admin, db: Db) -> PublishedOut:
    ws = workspaces.find_workspace(db, workspace)
    version = agents.publish(db, agents.get_agent(db, ws.id, slug), by=PUBLISHER)
    return PublishedOut(slug=slug, version=version.number)


@router.post("/workspaces/{workspace}/agents/{slug}/rollback")
def rollback_agent(workspace: str, slug: str, body: RollbackIn, _: Admin, db: Db) -> RolledBackOut:
    """Publishes an earlier version again (its configuration and its knowledge)."""
    ws = workspaces.find_workspace(db, workspace)
    agent = agents.get_agent(db, ws.id, slug)
    version = agents.rollback(db, agent, body.version, by=PUBLISHER)
    return RolledBackOut(slug=slug, version=version.number, restored=body.version)


@router.get("/workspaces/{workspace}/agents/{slug}/knowledge-changes")
def agent_knowledge_changes(workspace: str, slug: str, _: Admin, db: Db) -> KnowledgeChangeList:
    """Documents added, replaced or removed in the draft's bases that production does not
    read yet (they reach it with the next publish)."""
    ws = workspaces.find_workspace(db, workspace)
    changes = pending_changes(db, agents.get_agent(db, ws.id, slug))
    return KnowledgeChangeList(changes=[KnowledgeChangeOut.model_validate(c) for c in changes])


@router.post("/workspaces/{workspace}/keys", status_code=201)
def create_key(workspace: str, body: KeyCreate, _: Admin, db: Db) -> IssuedKeyOut:
    """A new key; the secret is in this response only."""
    ws = workspaces.find_workspace(db, workspace)
    agent_id = agents.get_agent(db, ws.id, body.agent).id if body.agent else None
    issued = workspaces.create_key(
        db,
        ws,
        agent_id=agent_id,
        env=body.env,
        scopes=list(body.scopes),
        rpm=body.rpm,
        name=body.name,
    )
    return IssuedKeyOut.of(issued.row, key=issued.secret)


@router.get("/workspaces/{workspace}/keys")
def list_keys(workspace: str, _: Admin, db: Db) -> KeyList:
    ws = workspaces.find_workspace(db, workspace)
    return KeyList(keys=[KeyOut.of(k) for k in workspaces.list_keys(db, ws)])


@router.delete("/workspaces/{workspace}/keys/{key_id}")
def revoke_key(workspace: str, key_id: str, _: Admin, db: Db) -> KeyOut:
    ws = workspaces.find_workspace(db, workspace)
    return KeyOut.of(workspaces.revoke_key(db, ws, key_id))


@router.get("/workspaces/{workspace}/runs/{run_id}")
def get_run(workspace: str, run_id: str, _: Admin, db: Db) -> RunOut:
    ws = workspaces.find_workspace(db, workspace)
    return run_view(db, run_id, ws.id)


@router.get("/runs/{run_id}")
def get_run_any(run_id: str, _: Admin, db: Db) -> RunOut:
    return run_view(db, run_id)


@router.get("/workspaces/{workspace}/conversations/{conversation_id}")
def get_conversation(workspace: str, conversation_id: str, _: Admin, db: Db) -> ConversationOut:
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.reach_conversation(db, ws.id, conversation_id)
    return conversations.conversation_view(db, row, users.name_of(db, row.assigned_to))


@router.post("/workspaces/{workspace}/conversations/{conversation_id}/handoff")
def handoff(workspace: str, conversation_id: str, _: Admin, db: Db) -> HandoffOut:
    """A human takes the conversation: the agent stops answering it."""
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.set_handoff(
        db, conversations.get_conversation(db, ws.id, conversation_id), True
    )
    return HandoffOut.model_validate(row)


@router.post("/workspaces/{workspace}/conversations/{conversation_id}/release")
def release(workspace: str, conversation_id: str, _: Admin, db: Db) -> HandoffOut:
    """The agent answers the conversation again."""
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.set_handoff(
        db, conversations.get_conversation(db, ws.id, conversation_id), False
    )
    return HandoffOut.model_validate(row)


@router.post("/workspaces/{workspace}/conversations/{conversation_id}/messages", status_code=201)
def operator_reply(
    workspace: str, conversation_id: str, body: schemas.OperatorReply, _: Admin, db: Db
) -> OperatorReplyOut:
    """An operator's reply, stored in the conversation's history."""
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.get_conversation(db, ws.id, conversation_id)
    message = conversations.add_operator_reply(db, row, body.content)
    return OperatorReplyOut.model_validate(message)
