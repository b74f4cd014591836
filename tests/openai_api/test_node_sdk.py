"""Contract test with the real OpenAI Node SDK (the ``openai`` npm package) against a live
server: a plain chat, a stream with ``include_usage`` (usage once), and ``runTools`` client
tools round trips (JSON and stream) under the default guardrails.

scripts/install-node-sdk installs the package once; the test is skipped only when that
install cannot reach the npm registry. The chat agent runs on the embedded default model;
the tools agent on a scripted upstream that asks for ``get_weather`` and restates its result.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Tenant
from tests.npm_install import npm_installed
from tests.weather_upstream import agent_on_scripted, scripted_upstream

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("node_sdk.mjs")
QUESTION = "¿Atienden de lunes a viernes?"
TOOL_QUESTION = "¿Qué tiempo hace en Madrid?"


@pytest.fixture(scope="session")
def node_sdk_dir() -> Path:
    """The ``openai`` npm package, installed by scripts/install-node-sdk (a no-op when
    present)."""
    return npm_installed("install-node-sdk", "VIGIA_NODE_SDK_DIR", ".vigia/node-sdk", 600)


@pytest.fixture
def upstream_url() -> Iterator[str]:
    with scripted_upstream() as (url, _bodies):
        yield url


def _run_node(folder: Path, case: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None, "npm brings node; scripts/install-node-sdk installs npm"
    # Node resolves ``import "openai"`` from the script's folder up, then NODE_PATH does not
    # apply to ES modules: the script runs from a copy inside the package's folder.
    script = folder / SCRIPT.name
    script.write_text(SCRIPT.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run(
        [node, str(script)],
        env={**os.environ, "VIGIA_NODE_CASE": json.dumps(case)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_the_node_sdk_chats_streams_and_runs_client_tools(
    node_sdk_dir: Path, live_server: str, tenant: Tenant, upstream_url: str
) -> None:
    tools = agent_on_scripted(upstream_url, name="herramientas")
    case = {
        "baseURL": f"{live_server}/v1",
        "chat": {"key": tenant.production_key, "model": tenant.agent_slug},
        "tools": {"key": tools.production_key, "model": "asistente"},
        "question": QUESTION,
        "toolQuestion": TOOL_QUESTION,
    }
    out = _run_node(node_sdk_dir, case)
    plain = out["plain"]
    assert "lunes a viernes" in plain["content"]
    assert plain["finish"] == "stop" and plain["status"] == "ok"
    stream = out["stream"]
    assert "lunes a viernes" in stream["text"]
    assert stream["usages"] == [plain["usage"]], "usage once, equal to the JSON call's"
    assert stream["lastChoices"] == 0 and stream["status"] == "ok"
    for name in ("runTools", "runToolsStream"):
        ran = out[name]
        assert ran["roles"] == ["user", "assistant", "tool", "assistant"], name
        assert ran["content"] == "Soleado en Madrid, 22 grados", name
    assert out["runTools"]["status"] == "ok"
