"""Worlds conversation ids are never reused, and the migration that ensures it keeps data."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from alembic import command
from fastapi.testclient import TestClient

from vigia.db.migrate import alembic_config, upgrade


def _new(client: TestClient) -> int:
    response = client.post("/chat", json={"message": "hola", "knowledge": False})
    assert response.status_code == 200, response.text
    return int(response.json()["conversation_id"])


def test_a_deleted_conversations_id_is_never_given_again(
    alice: TestClient, bob: TestClient
) -> None:
    first = _new(alice)
    assert alice.delete(f"/conversations/{first}").status_code == 200
    second = _new(bob)
    assert second > first
    assert bob.get(f"/conversations/{first}").status_code == 404
    assert alice.delete(f"/conversations/{second}").status_code == 404, "bob's, not alice's"
    assert bob.delete(f"/conversations/{second}").status_code == 200
    assert _new(alice) > second


def test_the_sqlite_migration_keeps_conversations_messages_and_shares(tmp_path: Path) -> None:
    database = tmp_path / "old.db"
    url = f"sqlite:///{database}"
    command.upgrade(alembic_config(url), "0005_worlds")
    with sqlite3.connect(database) as db:
        db.executemany(
            "INSERT INTO world_users VALUES (?, ?, 'h', '2024-01-01')",
            [("u1", "alice"), ("u2", "bob")],
        )
        columns = "id, owner_id, world_id, title, pinned, origin, source_id, created_at, updated_at"
        db.executemany(
            f"INSERT INTO world_conversations ({columns}) VALUES (?, ?, 'w', ?, 0, ?, ?, 'x', 'x')",
            [
                (1, "u1", "uno", "own", None),
                (2, "u1", "dos", "own", None),
                (3, "u2", "dos", "received_share", 2),
            ],
        )
        db.executemany(
            "INSERT INTO world_messages (conversation_id, role, content, created_at)"
            " VALUES (?, 'user', ?, 'x')",
            [(1, "a"), (2, "b"), (2, "c")],
        )
    upgrade(url)
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA foreign_keys=ON")
        assert db.execute("SELECT id, origin, source_id FROM world_conversations").fetchall() == [
            (1, "own", None),
            (2, "own", None),
            (3, "received_share", 2),
        ]
        assert db.execute("SELECT id, conversation_id, content FROM world_messages").fetchall() == [
            (1, 1, "a"),
            (2, 2, "b"),
            (3, 2, "c"),
        ]
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        db.execute("DELETE FROM world_conversations WHERE id = 3")
        db.execute(
            f"INSERT INTO world_conversations ({columns.removeprefix('id, ')})"
            " VALUES ('u1', 'w', 'cuatro', 0, 'own', NULL, 'x', 'x')"
        )
        assert db.execute("SELECT max(id) FROM world_conversations").fetchone() == (4,)
