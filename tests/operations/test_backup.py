"""``vigia backup`` / ``vigia restore``: a restored data directory holds the conversation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fastapi.testclient import TestClient

from tests.chat_calls import chat
from tests.conftest import Tenant


def vigia(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, object]]:
    """Runs ``vigia ARGS --json``; returns the exit code and the one JSON object printed."""
    out = subprocess.run(
        [sys.executable, "-m", "vigia.cli", *args, "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        check=False,
    )
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 1, f"one JSON object on stdout, got: {out.stdout!r} {out.stderr}"
    return out.returncode, json.loads(lines[0])


def test_chat_backup_restore_then_the_conversation_is_found(
    client: TestClient, tenant: Tenant, data_dir: Path, tmp_path: Path
) -> None:
    status, body = chat(client, tenant.production_key, tenant.agent_slug, "¿Cuál es el horario?")
    assert status == 200
    conversation = str(body["sherlock"]["conversation_id"])
    personal = data_dir / "worlds" / "personal" / "u1" / "notas.txt"
    personal.parent.mkdir(parents=True)
    personal.write_text("mis notas")

    code, saved = vigia("backup", str(tmp_path / "backup"))
    assert code == 0 and saved["path"] == str(tmp_path / "backup")
    manifest = json.loads((tmp_path / "backup" / "manifest.json").read_text())
    assert "worlds/personal/u1/notas.txt" in manifest["files"]

    restored = tmp_path / "restored"
    env = {"VIGIA_DATA_DIR": str(restored)}
    code, result = vigia("restore", str(tmp_path / "backup"), env=env)
    assert code == 0 and result["path"] == str(restored)
    assert (restored / "worlds" / "personal" / "u1" / "notas.txt").read_text() == "mis notas"

    code, shown = vigia(
        "conversation", "show", conversation, "--workspace", tenant.workspace_name, env=env
    )
    assert code == 0 and shown["id"] == conversation
    messages = shown["messages"]
    assert isinstance(messages, list)
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert messages[0]["content"] == "¿Cuál es el horario?"


def test_sqlite_backup_is_a_checked_single_file(data_dir: Path, tmp_path: Path) -> None:
    if os.environ.get("VIGIA_DATABASE_URL"):
        code, saved = vigia("backup", str(tmp_path / "b"))
        assert code == 0 and "pg_dump" in saved["database"]  # type: ignore[operator]
        return
    code, saved = vigia("backup", str(tmp_path / "b"))
    assert code == 0
    assert saved["database"] == {"backend": "sqlite", "file": "vigia.db", "quick_check": "ok"}
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == [
        "files",
        "manifest.json",
        "vigia.db",
    ]


def test_restore_into_a_non_empty_data_directory_is_refused(data_dir: Path, tmp_path: Path) -> None:
    code, _ = vigia("backup", str(tmp_path / "backup"))
    assert code == 0
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "something").write_text("keep me")

    code, error = vigia("restore", str(tmp_path / "backup"), env={"VIGIA_DATA_DIR": str(occupied)})

    assert code == 1
    assert error["error"] == "conflict" and "not empty" in str(error["detail"])
    assert sorted(p.name for p in occupied.iterdir()) == ["something"]


def test_backup_into_a_non_empty_folder_and_restore_of_a_non_backup_are_refused(
    data_dir: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "full"
    folder.mkdir()
    (folder / "x").write_text("x")
    code, error = vigia("backup", str(folder))
    assert code == 1 and error["error"] == "conflict"
    code, error = vigia("restore", str(tmp_path), env={"VIGIA_DATA_DIR": str(tmp_path / "new")})
    assert code == 1 and "not a Vigia backup" in str(error["detail"])
    assert not (tmp_path / "new").exists()
