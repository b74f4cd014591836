"""``vigia secret set|list|delete`` and ``vigia agent update --set`` with model settings:
values come from stdin and are never printed; a server setting as key is a CLI error. The
worlds prose model (operator configuration) never sends a ``VIGIA_*`` variable either."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.conftest import ADMIN_TOKEN, Tenant
from tests.recording_upstream import recording_upstream
from vigia.cli import app
from vigia.worlds.answer.lenses.common import Answer
from vigia.worlds.answer.prose import rewrite

SECRET = "sk-cli-secret-0123456789abcdef"


def vigia(*args: str, stdin: str | None = None) -> tuple[int, dict[str, Any], str]:
    """Exit code, the one JSON object printed, and everything printed."""
    result = CliRunner().invoke(app, [*args, "--json"], input=stdin)
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, f"one JSON object on stdout, got: {result.output!r}"
    return result.exit_code, json.loads(lines[0]), result.output


def test_secrets_from_the_cli_are_read_from_stdin_and_never_printed(tenant: Tenant) -> None:
    ws = ["--workspace", tenant.workspace_name]
    code, body, printed = vigia("secret", "set", "OPENAI", *ws, "--value-stdin", stdin=SECRET)
    assert code == 0 and body["name"] == "OPENAI" and SECRET not in printed
    code, body, printed = vigia("secret", "list", *ws)
    assert code == 0 and [s["name"] for s in body["secrets"]] == ["OPENAI"]
    assert SECRET not in printed
    code, body, _ = vigia("secret", "set", "OPENAI", *ws)
    assert code == 1 and body["error"] == "invalid"
    code, body, _ = vigia("secret", "delete", "OPENAI", *ws)
    assert code == 0 and body == {"name": "OPENAI", "deleted": True}
    code, body, _ = vigia("secret", "delete", "OPENAI", *ws)
    assert code == 1 and body["error"] == "not_found"


def test_agent_update_refuses_a_server_setting_as_key(tenant: Tenant) -> None:
    model = {
        "provider": "openai",
        "name": "gpt-4o-mini",
        "base_url": "https://api.openai.com/v1",
        "api_key_env": "VIGIA_ADMIN_TOKEN",
    }
    patch = json.dumps({"model": model})
    args = ("agent", "update", tenant.agent_slug, "--workspace", tenant.workspace_name)
    code, body, _ = vigia(*args, "--set", patch)
    assert code == 1 and body["error"] == "invalid" and "VIGIA_ADMIN_TOKEN" in body["detail"]


def test_the_worlds_prose_model_never_sends_a_server_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with recording_upstream() as (url, seen):
        monkeypatch.setenv("VIGIA_WORLDS_LLM_BASE_URL", url)
        monkeypatch.setenv("VIGIA_WORLDS_LLM_MODEL", "gpt-4o-mini")
        monkeypatch.setenv("VIGIA_WORLDS_LLM_API_KEY_ENV", "VIGIA_ADMIN_TOKEN")
        answer = Answer(lens="explain", sentences=["El programa calcula la cuota [a.cbl:3]."])
        assert rewrite("¿Qué hace?", answer) is None  # refused: the embedded answer stands
        monkeypatch.setenv("WORLDS_KEY", "sk-worlds")
        monkeypatch.setenv("VIGIA_WORLDS_LLM_API_KEY_ENV", "WORLDS_KEY")
        assert rewrite("¿Qué hace?", answer)
    assert seen == ["Bearer sk-worlds"]
    assert ADMIN_TOKEN not in "".join(seen)
