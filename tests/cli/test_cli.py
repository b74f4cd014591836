"""The CLI contract of shared/CLI.md: names, flags, and one JSON object with --json."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def vigia(*args: str, stdin: str | None = None) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "vigia.cli", *args, "--json"],
        input=stdin,
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr + out.stdout
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1, f"one JSON object on stdout, got: {out.stdout!r}"
    return json.loads(lines[0])


def test_demo_is_idempotent_and_prints_fresh_keys(data_dir: Path) -> None:
    first = vigia("demo")
    second = vigia("demo")
    for field in ("base_url", "workspace", "agent", "production_key", "draft_key", "admin_token"):
        assert field in first
    assert first["agent"] == "asistente-demo" and first["workspace"] == second["workspace"]
    assert first["production_key"] != second["production_key"]
    assert str(first["production_key"]).startswith("sk-vigia-")


def test_workspace_agent_publish_and_key(tmp_path: Path) -> None:
    ws = vigia("workspace", "create", "acme")
    assert set(ws) >= {"id", "name"} and ws["name"] == "acme"
    instructions = tmp_path / "i.txt"
    instructions.write_text("Sos un asistente.")
    agent = vigia(
        "agent",
        "create",
        "ventas",
        "--workspace",
        "acme",
        "--name",
        "Ventas",
        "--instructions-file",
        str(instructions),
    )
    assert agent["slug"] == "ventas" and agent["kind"] == "internal" and "id" in agent
    external = vigia("agent", "create", "bot", "--workspace", "acme", "--external")
    assert external["kind"] == "external"
    assert vigia("agent", "publish", "ventas", "--workspace", "acme") == {
        "slug": "ventas",
        "version": 1,
    }
    key = vigia(
        "key",
        "create",
        "--workspace",
        "acme",
        "--agent",
        "ventas",
        "--env",
        "draft",
        "--scope",
        "chat",
        "--scope",
        "decide",
        "--rpm",
        "30",
    )
    assert key["env"] == "draft" and key["scopes"] == ["chat", "decide"] and key["rpm"] == 30
    assert str(key["key"]).startswith("sk-vigia-") and "id" in key


@pytest.mark.parametrize("args", [("agent", "publish", "nope", "--workspace", "missing")])
def test_errors_are_json_with_exit_code_1(args: tuple[str, ...]) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "vigia.cli", *args, "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 1
    assert json.loads(out.stdout) == {
        "detail": "workspace 'missing' not found",
        "error": "not_found",
    }
