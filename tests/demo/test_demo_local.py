"""`vigia demo --model FILE --sha256 HEX` puts the demo agent on a local GGUF file (the
README's recipe): registered once its checksum matches, published, its samples still
loaded. A small file with the GGUF magic stands in for the model: nothing is loaded here
(tests/llm/test_local_turn.py runs turns on a real one)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from vigia.agents.service import get_agent, resolve
from vigia.cli import app
from vigia.db.session import session_scope
from vigia.demo import AGENT, WORKSPACE
from vigia.errors import NotFound
from vigia.llm.local_catalog import registered
from vigia.workspaces.service import find_workspace

CONTENT = b"GGUF" + bytes(60)


def test_demo_with_a_model_publishes_the_agent_on_it(tmp_path: Path) -> None:
    model = tmp_path / "qwen.gguf"
    model.write_bytes(CONTENT)
    digest = hashlib.sha256(CONTENT).hexdigest()
    result = CliRunner().invoke(app, ["demo", "--model", str(model), "--sha256", digest, "--json"])
    assert result.exit_code == 0, result.stdout
    assert json.loads(result.stdout)["agent"] == AGENT
    assert registered(model) is not None
    with session_scope() as session:
        workspace = find_workspace(session, WORKSPACE)
        agent = get_agent(session, workspace.id, AGENT)
        config = resolve(session, agent, "production").config
        assert config.model.provider == "local" and config.model.path == str(model.resolve())


def test_demo_with_a_wrong_checksum_changes_nothing(tmp_path: Path) -> None:
    model = tmp_path / "qwen.gguf"
    model.write_bytes(CONTENT)
    result = CliRunner().invoke(
        app, ["demo", "--model", str(model), "--sha256", "1" * 64, "--json"]
    )
    assert result.exit_code == 1 and "checksum mismatch" in json.loads(result.stdout)["detail"]
    assert registered(model) is None
    with session_scope() as session, pytest.raises(NotFound):
        find_workspace(session, WORKSPACE)  # the demo's transaction rolled back whole
