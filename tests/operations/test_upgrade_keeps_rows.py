"""Upgrading an old SQLite database keeps its rows: batch migrations rebuild tables, and with
foreign keys on, dropping the old ``workspaces`` table would cascade into every agent."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from sqlalchemy import create_engine, text

from vigia.db.migrate import alembic_config, upgrade

NOW = "2026-01-01 00:00:00"


def test_upgrading_from_the_first_revision_keeps_workspaces_agents_and_versions(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0001_foundation")
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO workspaces (id, name, budget_action, decide_quota_tokens,"
                " created_at) VALUES ('w1', 'acme', 'pause', 0, :now)"
            ),
            {"now": NOW},
        )
        db.execute(
            text(
                "INSERT INTO agents (id, workspace_id, slug, kind, draft, published_version,"
                " created_at, updated_at) VALUES ('a1', 'w1', 'bot', 'internal', '{}', 1,"
                " :now, :now)"
            ),
            {"now": NOW},
        )
        db.execute(
            text(
                "INSERT INTO agent_versions (id, agent_id, number, config, created_at)"
                " VALUES ('v1', 'a1', 1, '{}', :now)"
            ),
            {"now": NOW},
        )
    upgrade(url)
    with engine.connect() as db:
        assert db.scalar(text("SELECT count(*) FROM workspaces")) == 1
        assert db.scalar(text("SELECT slug FROM agents")) == "bot"
        assert db.scalar(text("SELECT count(*) FROM agent_versions")) == 1
        assert db.scalar(text("SELECT tool_hosts FROM workspaces")) == "[]"
        assert db.scalar(text("PRAGMA foreign_key_check")) is None
    engine.dispose()
