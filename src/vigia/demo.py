"""The demo workspace created by ``vigia demo``: one agent, every guardrail on, fresh keys."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from vigia.agents import service as agents
from vigia.agents.schemas import AgentCreate
from vigia.config import get_settings
from vigia.errors import NotFound
from vigia.workspaces import service as workspaces

WORKSPACE = "demo"
AGENT = "asistente-demo"
INSTRUCTIONS = (
    "Sos el asistente de demostración de Vigia. Vigia es una plataforma de agentes de IA que "
    "corre en tu propia máquina, sin conexión a internet. Cada agente se expone como un modelo "
    "compatible con OpenAI en /v1/chat/completions. Las claves de producción usan la versión "
    "publicada del agente y las de borrador usan el borrador. Los guardrails revisan cada "
    "mensaje de entrada y cada frase de la respuesta antes de enviarla."
)


def ensure_demo(session: Session) -> dict[str, Any]:
    """Creates the demo workspace and agent if missing; always issues new keys."""
    try:
        workspace = workspaces.find_workspace(session, WORKSPACE)
    except NotFound:
        workspace = workspaces.create_workspace(session, WORKSPACE)
    try:
        agent = agents.get_agent(session, workspace.id, AGENT)
    except NotFound:
        spec = AgentCreate(slug=AGENT, name="Asistente de demostración", instructions=INSTRUCTIONS)
        agent = agents.create_agent(session, workspace, spec)
        agents.publish(session, agent)
    scopes = ["chat", "decide", "guardrails:review"]
    production = workspaces.create_key(session, workspace, scopes=scopes, name="demo production")
    draft = workspaces.create_key(session, workspace, env="draft", scopes=scopes, name="demo draft")
    settings = get_settings()
    return {
        "base_url": settings.base_url,
        "workspace": workspace.name,
        "workspace_id": workspace.id,
        "agent": agent.slug,
        "production_key": production.secret,
        "draft_key": draft.secret,
        "admin_token": settings.resolved_admin_token(),
    }
