"""`vigia user create`, `vigia world add` and `vigia world index` (CLI.md contract)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tests.worlds.conftest import PAYROLL
from vigia.users.cli import user_app
from vigia.worlds.cli import world_app


def test_user_create_world_add_and_index_print_one_json_object() -> None:
    runner = CliRunner()
    created = runner.invoke(
        user_app, ["create", "dora", "--password-stdin", "--json"], input="a long password\n"
    )
    assert created.exit_code == 0, created.output
    assert set(json.loads(created.stdout)) == {"id", "name"}
    added = runner.invoke(world_app, ["add", "payroll", str(PAYROLL), "--json"])
    assert added.exit_code == 0
    assert json.loads(added.stdout) == {"id": "payroll", "path": str(PAYROLL.resolve())}
    indexed = runner.invoke(world_app, ["index", "payroll", "--json"])
    assert indexed.exit_code == 0, indexed.output
    payload = json.loads(indexed.stdout)
    assert payload["id"] == "payroll" and payload["files"] == 28 and payload["lines"] > 900
    assert payload["seconds"] >= 0
    again = json.loads(runner.invoke(world_app, ["index", "payroll", "--json"]).stdout)
    assert again["changed"] == 0


def test_cli_errors_are_json_and_exit_1() -> None:
    runner = CliRunner()
    missing = runner.invoke(world_app, ["index", "nope", "--json"])
    assert missing.exit_code == 1
    assert json.loads(missing.stdout)["error"] == "not_found"
    short = runner.invoke(user_app, ["create", "eve", "--password-stdin", "--json"], input="x\n")
    assert short.exit_code == 1 and json.loads(short.stdout)["error"] == "invalid"
