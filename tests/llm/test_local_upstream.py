"""The ``openai`` provider against a real upstream: SmolLM2-135M behind llama.cpp's own
OpenAI-compatible HTTP server (xllamacpp's ``Server``), keyed by a workspace secret.

The client is the real openai SDK against a live Vigia, so each path of the provider (a
whole answer, a stream with usage) talks to a language model over HTTP, not to a fake.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from openai import OpenAI

from tests.conftest import Tenant, make_tenant
from tests.llm.local_files import requires_local, smollm2
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.db.session import session_scope
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.settings import ModelSettings
from vigia.workspaces.secrets import set_secret

pytestmark = [pytest.mark.local_model, requires_local]

INSTRUCTIONS = "You are the assistant of a bakery. Answer in one short sentence."


@pytest.fixture(scope="module")
def llama_server() -> Iterator[tuple[str, str]]:
    """llama.cpp's HTTP server on a free loopback port; yields its ``/v1`` URL and key."""
    import xllamacpp

    key = secrets.token_urlsafe(16)
    params = xllamacpp.CommonParams()
    params.model.path = str(smollm2())
    params.n_ctx = 2048
    params.n_parallel = 1
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 1
    params.warmup = False
    params.api_keys = [key]
    server = xllamacpp.Server(params)
    yield server.listening_address + "/v1", key
    del server  # its destructor stops the loop and the port


def _agent_on(url: str, key: str) -> Tenant:
    tenant = make_tenant(name="panaderia", slug="asistente", instructions=INSTRUCTIONS)
    allow_upstream(tenant.workspace_id, url)
    with session_scope() as session:
        set_secret(session, tenant.workspace_id, "LLAMA_KEY", key)
    model = ModelSettings(
        provider="openai", name="smollm2", base_url=url, api_key_secret="LLAMA_KEY", max_tokens=40
    )
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        patch = AgentPatch(model=model, guardrails=GuardrailsConfig(grounding="off"))
        update_draft(session, agent, patch)
        publish(session, agent)
    return tenant


def _ask(live_server: str, tenant: Tenant, **options: Any) -> Any:
    sdk = OpenAI(base_url=f"{live_server}/v1", api_key=tenant.production_key, max_retries=0)
    return sdk.chat.completions.create(
        model="asistente",
        messages=[{"role": "user", "content": "Do you sell bread on Sundays?"}],
        **options,
    )


def test_a_real_upstream_answers_whole_with_its_usage(
    live_server: str, llama_server: tuple[str, str]
) -> None:
    tenant = _agent_on(*llama_server)
    completion = _ask(live_server, tenant)
    assert completion.choices[0].message.content.strip()
    assert completion.choices[0].finish_reason in ("stop", "length")
    assert completion.usage.prompt_tokens > 20
    assert 0 < completion.usage.completion_tokens <= 40


def test_a_real_upstream_streams_with_usage(
    live_server: str, llama_server: tuple[str, str]
) -> None:
    tenant = _agent_on(*llama_server)
    stream = _ask(live_server, tenant, stream=True, stream_options={"include_usage": True})
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.strip()
    assert chunks[-1].usage is not None and chunks[-1].usage.completion_tokens > 0
