"""Agents on a fake upstream model (``FunctionModel``) for the tools tests."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from tests.conftest import Tenant, make_tenant
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.conversations.models import Message
from vigia.db.session import session_scope
from vigia.engine.runs import run_view
from vigia.engine.schemas import RunOut
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.protocol import ModelRequest
from vigia.llm.settings import ModelSettings

MODEL = "tool-model"


def agent_on_fake(name: str = "acme", **patch: Any) -> Tenant:
    """A tenant whose published agent runs on the fake upstream ``MODEL``; its replies rest
    on tool results, so grounding is off unless ``patch`` says otherwise."""
    tenant = make_tenant(name=name, slug="asistente")
    patch.setdefault("guardrails", GuardrailsConfig(grounding="off"))
    allow_upstream(tenant.workspace_id, "http://upstream.test/v1")
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = ModelSettings(provider="openai", name=MODEL, base_url="http://upstream.test/v1")
        update_draft(session, agent, AgentPatch(model=model, **patch))
        publish(session, agent)
    return tenant


def stored_messages(conversation_id: str) -> list[dict[str, Any]]:
    """The conversation's messages in order, as stored."""
    with session_scope() as session:
        rows = session.scalars(
            select(Message).where(Message.conversation_id == conversation_id).order_by(Message.id)
        ).all()
        return [
            {
                "role": m.role,
                "content": m.content,
                "tool_calls": m.tool_calls,
                "tool_call_id": m.tool_call_id,
            }
            for m in rows
        ]


def run_of(run_id: str) -> RunOut:
    with session_scope() as session:
        return run_view(session, run_id)


def tool_results(request: ModelRequest) -> list[str]:
    """The tool results a model request carries after the user's message."""
    return [m.content for m in request.continuation if m.role == "tool"]
