"""`vigia decide quota`: shows and sets the monthly quota, one JSON object with --json."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tests.conftest import Tenant
from vigia.cli import app


def test_quota_shows_and_sets(tenant: Tenant) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["decide", "quota", "--workspace", tenant.workspace_name, "--json"])
    assert shown.exit_code == 0, shown.output
    payload = json.loads(shown.stdout)
    assert payload["cuota_mensual"] == 1_000_000 and payload["tokens_este_mes"] == 0
    changed = runner.invoke(
        app, ["decide", "quota", "--workspace", tenant.workspace_id, "--set", "500", "--json"]
    )
    assert json.loads(changed.stdout)["cuota_mensual"] == 500


def test_unknown_workspace_fails_with_error_json() -> None:
    result = CliRunner().invoke(app, ["decide", "quota", "--workspace", "nadie", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == "not_found"
