"""Helpers of the guardrails tests end to end: an agent on a fake upstream model, asked
through the real ``openai`` SDK against the live server."""

from __future__ import annotations

from typing import Any

from openai import OpenAI

from tests.conftest import Tenant, make_tenant
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.db.session import session_scope
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.settings import ModelSettings

UPSTREAM_MODEL = "upstream-model"


def agent_on_upstream(workspace: str, guardrails: GuardrailsConfig | None = None) -> Tenant:
    """A tenant whose published agent ``asistente`` generates with ``UPSTREAM_MODEL`` (the
    test's fake, registered with ``override_model``), with ``guardrails`` when given."""
    tenant = make_tenant(name=workspace, slug="asistente")
    allow_upstream(tenant.workspace_id, "http://upstream.test/v1")
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = ModelSettings(
            provider="openai", name=UPSTREAM_MODEL, base_url="http://upstream.test/v1"
        )
        update_draft(session, agent, AgentPatch(model=model, guardrails=guardrails))
        publish(session, agent)
    return tenant


def client_of(tenant: Tenant, url: str) -> OpenAI:
    """The ``openai`` SDK on the live server with the tenant's production key."""
    return OpenAI(base_url=f"{url}/v1", api_key=tenant.production_key, max_retries=0)


def ask(tenant: Tenant, url: str, messages: list[dict[str, str]], **extra: Any) -> Any:
    """The completion of ``messages`` (``extra``: more create() arguments, e.g. stream)."""
    client = client_of(tenant, url)
    return client.chat.completions.create(model="asistente", messages=messages, **extra)  # type: ignore[arg-type]


def sherlock(completion: Any) -> dict[str, Any]:
    """The ``sherlock`` block of a completion or of a stream's last chunk."""
    return dict((completion.model_extra or {})["sherlock"])


def streamed(tenant: Tenant, url: str, question: str) -> tuple[str, dict[str, Any]]:
    """Every delta the client received for ``question``, joined, and the final ``sherlock``."""
    stream = ask(tenant, url, [{"role": "user", "content": question}], stream=True)
    deltas: list[str] = []
    last = None
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            deltas.append(chunk.choices[0].delta.content)
        last = chunk
    assert last is not None
    return "".join(deltas), sherlock(last)
