"""`vigia user create`, `vigia world add` and `vigia world index` (CLI.md contract), and
the progress `vigia world index` shows."""

from __future__ import annotations

import io
import json

from rich.console import Console
from typer.testing import CliRunner

from tests.worlds.conftest import PAYROLL
from vigia.users.cli import user_app
from vigia.worlds.cli import PLAIN_STEPS, IndexProgress, world_app


def test_user_create_world_add_and_index_print_one_json_object() -> None:
    runner = CliRunner()
    created = runner.invoke(
        user_app, ["create", "dora", "--password-stdin", "--json"], input="a long password\n"
    )
    assert created.exit_code == 0, created.output
    assert set(json.loads(created.stdout)) == {"id", "name"}
    added = runner.invoke(world_app, ["add", "payroll", str(PAYROLL), "--json"])
    assert added.exit_code == 0
    assert json.loads(added.stdout) == {
        "id": "payroll",
        "path": str(PAYROLL.resolve()),
        "workspace": None,  # there is no workspace yet: registered unassigned
    }
    assert "belongs to no workspace" in added.stderr
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


def test_world_index_prints_plain_progress_lines_when_not_on_a_terminal() -> None:
    runner = CliRunner()
    runner.invoke(world_app, ["add", "payroll", str(PAYROLL)])
    indexed = runner.invoke(world_app, ["index", "payroll", "--json"])
    assert indexed.exit_code == 0, indexed.output
    lines = indexed.stderr.splitlines()
    assert lines[0].startswith("payroll: ") and lines[0].endswith("files read")
    assert "payroll: 28/28 files read" in lines
    done, total = [ln for ln in lines if ln.endswith("passages embedded")][-1].split()[1].split("/")
    assert done == total and int(total) > 50
    assert len(lines) <= 2 * (PLAIN_STEPS + 1)
    assert json.loads(indexed.stdout)["files"] == 28  # stdout stays one JSON object


def test_world_index_draws_bars_on_a_terminal() -> None:
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=100)
    with IndexProgress("payroll", console) as progress:
        progress("read", 14, 28)
        progress("read", 28, 28)
        progress("embed", 120, 120)
    shown = screen.getvalue()
    assert "payroll: files read" in shown and "28/28" in shown
    assert "payroll: passages embedded" in shown and "120/120" in shown
