"""A tenant whose published agent runs a priced upstream model (``priced-model``), for the
budget tests; a test fakes the model itself with ``override_model(..., name=PRICED_MODEL)``."""

from __future__ import annotations

import pytest

from tests.conftest import Tenant
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.config import get_settings
from vigia.db.session import session_scope
from vigia.llm.settings import ModelSettings

PRICED_MODEL = "priced-model"
PRICES = '{"priced-model": {"input": 1000, "output": 1000}}'  # USD per million tokens


def price_the_agent(tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> None:
    """Publishes ``tenant``'s agent on ``PRICED_MODEL`` at ``PRICES``."""
    monkeypatch.setenv("VIGIA_PRICES", PRICES)
    get_settings.cache_clear()
    allow_upstream(tenant.workspace_id, "http://x.test")
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = ModelSettings(provider="openai", name=PRICED_MODEL, base_url="http://x.test")
        update_draft(session, agent, AgentPatch(model=model))
        publish(session, agent)
