"""Which workspace a world belongs to: `vigia world add --workspace`, `vigia world assign`,
and the migration that hands existing worlds to the workspace named at upgrade."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from alembic import command
from typer.testing import CliRunner

from tests.worlds.conftest import PAYROLL
from vigia.db.migrate import alembic_config, upgrade
from vigia.db.session import session_scope
from vigia.workspaces.service import create_workspace
from vigia.worlds.cli import world_app
from vigia.worlds.models import World


def _workspace(name: str) -> str:
    with session_scope() as session:
        return create_workspace(session, name).id


def _owner(world_id: str) -> str | None:
    with session_scope() as session:
        world = session.get(World, world_id)
        assert world is not None
        return world.workspace_id


def _invoke(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(world_app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    payload: dict[str, object] = json.loads(result.stdout)
    return payload


def test_world_add_names_its_workspace_or_takes_the_only_one() -> None:
    acme = _workspace("acme")
    only = _invoke("add", "solo", str(PAYROLL))
    assert only["workspace"] == "acme" and _owner("solo") == acme
    beta = _workspace("beta")
    named = _invoke("add", "named", str(PAYROLL), "--workspace", "beta")
    assert named["workspace"] == "beta" and _owner("named") == beta
    result = CliRunner().invoke(world_app, ["add", "either", str(PAYROLL), "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["workspace"] is None
    assert "vigia world assign either --workspace W" in result.stderr
    assert _owner("either") is None
    missing = CliRunner().invoke(
        world_app, ["add", "nowhere", str(PAYROLL), "--workspace", "nope", "--json"]
    )
    assert missing.exit_code != 0 and "workspace 'nope' not found" in missing.stdout


def test_world_assign_moves_named_worlds_or_every_unassigned_one() -> None:
    _invoke("add", "one", str(PAYROLL))
    _invoke("add", "two", str(PAYROLL))
    acme, beta = _workspace("acme"), _workspace("beta")
    moved = _invoke("assign", "one", "--workspace", "beta")
    assert moved == {"workspace": "beta", "worlds": ["one"]} and _owner("one") == beta
    rest = _invoke("assign", "--workspace", "acme")
    assert rest == {"workspace": "acme", "worlds": ["two"]}, "only the unassigned ones"
    assert (_owner("one"), _owner("two")) == (beta, acme)
    unnamed = CliRunner().invoke(world_app, ["assign", "one", "--json"])
    assert unnamed.exit_code != 0 and "name the workspace with --workspace" in unnamed.stdout


def _old_database(tmp_path: Path) -> str:
    """A database at the revision before worlds had workspaces, with a workspace and a world."""
    database = tmp_path / "old.db"
    url = f"sqlite:///{database}"
    command.upgrade(alembic_config(url), "0020_one_line")
    with sqlite3.connect(database) as db:
        db.execute(
            "INSERT INTO workspaces (id, name, budget_action, decide_quota_tokens, created_at)"
            " VALUES ('w1', 'acme', 'pause', 0, '2026-01-01')"
        )
        db.execute(
            "INSERT INTO worlds (id, path, files, lines, created_at)"
            " VALUES ('genapp', '/srv/genapp', 3, 30, '2026-01-01')"
        )
        db.execute(
            "INSERT INTO world_files (world_id, path, kind, sha256, mtime, size, lines, copies)"
            " VALUES ('genapp', 'src/a.cbl', 'cobol', 'x', 0, 1, 1, '[]')"
        )
    return url


def _worlds(url: str) -> list[tuple[str, str | None, int]]:
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        return db.execute(
            "SELECT w.id, w.workspace_id, count(f.id) FROM worlds w"
            " LEFT JOIN world_files f ON f.world_id = w.id GROUP BY w.id"
        ).fetchall()


def test_the_upgrade_gives_existing_worlds_to_the_workspace_it_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _old_database(tmp_path)
    monkeypatch.setenv("VIGIA_WORLDS_WORKSPACE", "acme")
    upgrade(url)
    assert _worlds(url) == [("genapp", "w1", 1)], "assigned, with its files kept"
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        db.execute(  # a worlds run has no agent
            "INSERT INTO runs (id, workspace_id, agent_id, channel, env, status, model,"
            " prompt_tokens, completion_tokens, cost_usd, budget_alert, streamed, duration_ms,"
            " created_at) VALUES ('r1', 'w1', NULL, 'worlds', 'production', 'ok', '', 0, 0,"
            " 0, 0, 0, 0, '2026-01-01')"
        )


def test_without_a_workspace_named_the_upgrade_leaves_worlds_unassigned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _old_database(tmp_path)
    monkeypatch.delenv("VIGIA_WORLDS_WORKSPACE", raising=False)
    upgrade(url)
    assert _worlds(url) == [("genapp", None, 1)]


def test_an_unknown_workspace_named_at_upgrade_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _old_database(tmp_path)
    monkeypatch.setenv("VIGIA_WORLDS_WORKSPACE", "nope")
    with pytest.raises(RuntimeError, match="VIGIA_WORLDS_WORKSPACE='nope'"):
        upgrade(url)
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0020_one_line",)
        ], "nothing of the revision stays"
        assert db.execute("SELECT id FROM worlds").fetchall() == [("genapp",)]
