"""`vigia model add PATH --sha256 HEX` registers a GGUF file only when its checksum matches;
`vigia model list` shows what is registered. (A small file with the GGUF magic stands in for
a model: the command reads bytes, it does not load them.)"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from vigia.cli import app

CONTENT = b"GGUF" + bytes(60)


def _file(tmp_path: Path, content: bytes = CONTENT) -> Path:
    path = tmp_path / "tiny.gguf"
    path.write_bytes(content)
    return path


def _run(*args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(app, ["model", *args, "--json"])
    return result.exit_code, json.loads(result.stdout)


def test_model_add_registers_a_file_whose_checksum_matches(tmp_path: Path) -> None:
    path = _file(tmp_path)
    digest = hashlib.sha256(CONTENT).hexdigest()
    code, entry = _run("add", str(path), "--sha256", digest.upper())
    assert code == 0
    assert entry["path"] == str(path.resolve()) and entry["sha256"] == digest
    assert entry["size"] == len(CONTENT)
    code, listed = _run("list")
    assert code == 0 and [m["path"] for m in listed["models"]] == [str(path.resolve())]


def test_model_add_refuses_a_checksum_mismatch_and_registers_nothing(tmp_path: Path) -> None:
    path = _file(tmp_path)
    code, error = _run("add", str(path), "--sha256", "0" * 64)
    assert code == 1 and error["error"] == "invalid"
    assert "checksum mismatch" in str(error["detail"])
    assert hashlib.sha256(CONTENT).hexdigest() in str(error["detail"])
    assert _run("list") == (0, {"models": []})


def test_model_add_refuses_what_is_not_a_gguf_file(tmp_path: Path) -> None:
    path = _file(tmp_path, b"not a model at all")
    digest = hashlib.sha256(b"not a model at all").hexdigest()
    code, error = _run("add", str(path), "--sha256", digest)
    assert code == 1 and "is not a GGUF file" in str(error["detail"])
    code, error = _run("add", str(tmp_path / "absent.gguf"), "--sha256", digest)
    assert code == 1 and "does not exist" in str(error["detail"])
    code, error = _run("add", str(path), "--sha256", "abc")
    assert code == 1 and "64 hexadecimal" in str(error["detail"])
