"""The demo workspace created by ``vigia demo``: one agent, every guardrail on, fresh keys,
and a console owner (user ``demo``) whose password is new on every run.

The agent's knowledge is the sample documents shipped beside this module (Spanish, about
Vigia itself: Markdown and one PDF), loaded once; ``sample_question`` is answered by them.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from vigia.agents import service as agents
from vigia.agents.schemas import AgentCreate, AgentPatch, Replies
from vigia.config import get_settings
from vigia.errors import NotFound
from vigia.knowledge import service as knowledge
from vigia.llm.local_catalog import add_model
from vigia.llm.settings import ModelSettings
from vigia.users import roles
from vigia.users import service as users
from vigia.workspaces import service as workspaces
from vigia.workspaces.models import Workspace

WORKSPACE = "demo"
AGENT = "asistente-demo"
INSTRUCTIONS = (
    "Sos el asistente de demostración de Vigia. Vigia es una plataforma de agentes de IA que "
    "corre en tu propia máquina, sin conexión a internet. Cada agente se expone como un modelo "
    "compatible con OpenAI en /v1/chat/completions. Las claves de producción usan la versión "
    "publicada del agente y las de borrador usan el borrador. Los guardrails revisan cada "
    "mensaje de entrada y cada frase de la respuesta antes de enviarla."
)
SAMPLES = Path(__file__).parent / "knowledge"
CONSOLE_USER = "demo"
SAMPLE_QUESTION = "¿Qué versión del agente usan las claves de borrador?"
# A newcomer's first message is often "hola": answer it with what the demo knows about.
GREETING = (
    "¡Hola! Soy el asistente de demostración de Vigia. Puedo contarte qué es Vigia, cómo "
    "funcionan las claves y las versiones, los guardrails y el presupuesto. Probá con: "
    f"«{SAMPLE_QUESTION}»"
)


def _load_samples(session: Session, workspace: Workspace, agent: Any) -> None:
    """Adds the sample documents to the agent's draft knowledge and publishes it, once."""
    if agents.draft_config(agent).knowledge_bases:
        return
    kb = knowledge.agent_knowledge_base(session, workspace, agent)
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix in (".md", ".pdf"):
            knowledge.add_document(session, kb, path.name, path.read_bytes())
    agents.publish(session, agent)


def _console_owner(session: Session, workspace: Workspace) -> str:
    """The demo's console owner, with a fresh password (like the keys, printed each time)."""
    password = secrets.token_urlsafe(12)
    user = users.find_user(session, CONSOLE_USER)
    if user is None:
        user = users.create_user(session, CONSOLE_USER, password)
    else:
        users.set_password(session, user, password)
    roles.grant(session, user.id, workspace.id, "owner")
    return password


def _answer_with(session: Session, agent: Any, model: Path, sha256: str) -> None:
    """Registers ``model`` (its checksum checked) and publishes the agent on it."""
    entry = add_model(model, sha256)
    local = ModelSettings(provider="local", path=entry.path)
    agents.update_draft(session, agent, AgentPatch(model=local))
    agents.publish(session, agent)


def ensure_demo(session: Session, model: Path | None = None, sha256: str = "") -> dict[str, Any]:
    """Creates the demo workspace and agent if missing; always issues new keys. With
    ``model`` (a GGUF file and its SHA-256) the agent answers through the local provider."""
    try:
        workspace = workspaces.find_workspace(session, WORKSPACE)
    except NotFound:
        workspace = workspaces.create_workspace(session, WORKSPACE)
    try:
        agent = agents.get_agent(session, workspace.id, AGENT)
    except NotFound:
        spec = AgentCreate(
            slug=AGENT,
            name="Asistente de demostración",
            instructions=INSTRUCTIONS,
            replies=Replies(greeting=GREETING),
        )
        agent = agents.create_agent(session, workspace, spec)
        agents.publish(session, agent)
    if model is not None:
        _answer_with(session, agent, model, sha256)
    _load_samples(session, workspace, agent)
    scopes = ["chat", "decide", "guardrails:review"]
    production = workspaces.create_key(session, workspace, scopes=scopes, name="demo production")
    draft = workspaces.create_key(session, workspace, env="draft", scopes=scopes, name="demo draft")
    password = _console_owner(session, workspace)
    settings = get_settings()
    return {
        "base_url": settings.base_url,
        "workspace": workspace.name,
        "workspace_id": workspace.id,
        "agent": agent.slug,
        "production_key": production.secret,
        "draft_key": draft.secret,
        "admin_token": settings.resolved_admin_token(),
        "sample_question": SAMPLE_QUESTION,
        "console_url": settings.root_url + "/console",
        "console_user": CONSOLE_USER,
        "console_password": password,
    }
