"""The admin API: workspaces, budgets, agents (draft, publish), keys, runs, handoff."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends
from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.admin import schemas
from vigia.agents import service as agents
from vigia.agents.schemas import AgentCreate, AgentPatch
from vigia.conversations import service as conversations
from vigia.db.session import get_db
from vigia.deps import Admin
from vigia.engine.runs import run_view
from vigia.engine.stages import budget
from vigia.workspaces import service as workspaces
from vigia.workspaces.models import Workspace

router = APIRouter(prefix="/admin", tags=["admin"])
Db = Annotated[Session, Depends(get_db, scope="function")]


def _workspace_view(row: Workspace) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "budget_usd": row.budget_usd,
        "budget_action": row.budget_action,
        "created_at": row.created_at.isoformat(),
    }


@router.post("/workspaces", status_code=201)
def create_workspace(body: schemas.WorkspaceCreate, _: Admin, db: Db) -> dict[str, Any]:
    return _workspace_view(workspaces.create_workspace(db, body.name))


@router.get("/workspaces")
def list_workspaces(_: Admin, db: Db) -> dict[str, Any]:
    rows = db.scalars(select(Workspace).order_by(Workspace.name)).all()
    return {"workspaces": [_workspace_view(w) for w in rows]}


@router.put("/workspaces/{workspace}/budget")
def set_budget(workspace: str, body: schemas.BudgetUpdate, _: Admin, db: Db) -> dict[str, Any]:
    row = workspaces.set_budget(
        db, workspaces.find_workspace(db, workspace), body.budget_usd, body.action
    )
    return _workspace_view(row)


@router.get("/workspaces/{workspace}/usage")
def usage(workspace: str, _: Admin, db: Db) -> dict[str, Any]:
    """This month's spend against the budget; ``alert`` is true once it is reached."""
    state = budget.budget_state(db, workspaces.find_workspace(db, workspace))
    spent = budget.month_spend(db, workspaces.find_workspace(db, workspace).id)
    return {
        "month_start": budget.month_start().isoformat(),
        "spent_usd": round(spent, 8),
        "budget_usd": state.budget_usd,
        "action": state.action,
        "exhausted": state.exhausted,
        "alert": state.alerts,
    }


@router.post("/workspaces/{workspace}/agents", status_code=201)
def create_agent(workspace: str, body: AgentCreate, _: Admin, db: Db) -> dict[str, Any]:
    return agents.agent_view(
        agents.create_agent(db, workspaces.find_workspace(db, workspace), body)
    )


@router.get("/workspaces/{workspace}/agents")
def list_agents(workspace: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    return {"agents": [agents.agent_view(a) for a in agents.list_agents(db, ws.id)]}


@router.get("/workspaces/{workspace}/agents/{slug}")
def get_agent(workspace: str, slug: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    return agents.agent_view(agents.get_agent(db, ws.id, slug))


@router.patch("/workspaces/{workspace}/agents/{slug}")
def update_agent(workspace: str, slug: str, body: AgentPatch, _: Admin, db: Db) -> dict[str, Any]:
    """Edits the draft; production keys keep the published version until publish."""
    ws = workspaces.find_workspace(db, workspace)
    return agents.agent_view(agents.update_draft(db, agents.get_agent(db, ws.id, slug), body))


@router.post("/workspaces/{workspace}/agents/{slug}/publish")
def publish_agent(workspace: str, slug: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    version = agents.publish(db, agents.get_agent(db, ws.id, slug))
    return {"slug": slug, "version": version.number}


@router.post("/workspaces/{workspace}/keys", status_code=201)
def create_key(workspace: str, body: schemas.KeyCreate, _: Admin, db: Db) -> dict[str, Any]:
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
    return {"key": issued.secret, **workspaces.key_view(issued.row)}


@router.get("/workspaces/{workspace}/keys")
def list_keys(workspace: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    return {"keys": [workspaces.key_view(k) for k in workspaces.list_keys(db, ws)]}


@router.delete("/workspaces/{workspace}/keys/{key_id}")
def revoke_key(workspace: str, key_id: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    return workspaces.key_view(workspaces.revoke_key(db, ws, key_id))


@router.get("/workspaces/{workspace}/runs/{run_id}")
def get_run(workspace: str, run_id: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    return run_view(db, run_id, ws.id)


@router.get("/runs/{run_id}")
def get_run_any(run_id: str, _: Admin, db: Db) -> dict[str, Any]:
    return run_view(db, run_id)


@router.get("/workspaces/{workspace}/conversations/{conversation_id}")
def get_conversation(workspace: str, conversation_id: str, _: Admin, db: Db) -> dict[str, Any]:
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.get_conversation(db, ws.id, conversation_id)
    return conversations.conversation_view(db, row)


@router.post("/workspaces/{workspace}/conversations/{conversation_id}/handoff")
def handoff(workspace: str, conversation_id: str, _: Admin, db: Db) -> dict[str, Any]:
    """A human takes the conversation: the agent stops answering it."""
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.set_handoff(
        db, conversations.get_conversation(db, ws.id, conversation_id), True
    )
    return {"id": row.id, "handoff": row.handoff}


@router.post("/workspaces/{workspace}/conversations/{conversation_id}/release")
def release(workspace: str, conversation_id: str, _: Admin, db: Db) -> dict[str, Any]:
    """The agent answers the conversation again."""
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.set_handoff(
        db, conversations.get_conversation(db, ws.id, conversation_id), False
    )
    return {"id": row.id, "handoff": row.handoff}


@router.post("/workspaces/{workspace}/conversations/{conversation_id}/messages", status_code=201)
def operator_reply(
    workspace: str, conversation_id: str, body: schemas.OperatorReply, _: Admin, db: Db
) -> dict[str, Any]:
    """An operator's reply, stored in the conversation's history."""
    ws = workspaces.find_workspace(db, workspace)
    row = conversations.get_conversation(db, ws.id, conversation_id)
    message = conversations.add_message(db, row, "operator", body.content)
    return {"id": message.id, "role": message.role, "content": message.content}
