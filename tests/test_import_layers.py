"""The layer contract of ``pyproject.toml`` means what it says: the real tree keeps it, and a
copy of the tree with one deliberate surface → surface import breaks it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
LAYERS = "Layers: surfaces, engine, domains, infrastructure"


def _lint(src: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the repository's contracts on the ``vigia`` found under ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(ROOT / "pyproject.toml"), "--no-cache", "--no-logo"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A scratch copy of ``src/vigia`` (the real one is never touched)."""
    shutil.copytree(
        ROOT / "src" / "vigia",
        tmp_path / "src" / "vigia",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    return tmp_path / "src"


def test_the_real_tree_keeps_every_contract(tree: Path, tmp_path: Path) -> None:
    result = _lint(tree, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{LAYERS} KEPT" in result.stdout


def test_a_surface_importing_another_surface_breaks_the_layers(tree: Path, tmp_path: Path) -> None:
    (tree / "vigia" / "console" / "scratch.py").write_text(
        "from vigia.admin.schemas import WorkspaceCreate\n"
    )
    result = _lint(tree, tmp_path)
    assert result.returncode != 0
    assert f"{LAYERS} BROKEN" in result.stdout
    assert "vigia.console.scratch -> vigia.admin.schemas" in result.stdout


def test_a_domain_importing_the_engine_breaks_the_layers(tree: Path, tmp_path: Path) -> None:
    (tree / "vigia" / "agents" / "scratch.py").write_text("from vigia.engine import prepare\n")
    result = _lint(tree, tmp_path)
    assert f"{LAYERS} BROKEN" in result.stdout
    assert "vigia.agents.scratch -> vigia.engine" in result.stdout


def test_a_package_without_a_row_breaks_the_layers(tree: Path, tmp_path: Path) -> None:
    (tree / "vigia" / "newdomain").mkdir()
    (tree / "vigia" / "newdomain" / "__init__.py").write_text("")
    result = _lint(tree, tmp_path)
    assert f"{LAYERS} BROKEN" in result.stdout
    assert "vigia.newdomain" in result.stdout


def test_a_surface_reaching_into_the_engine_stages_breaks_its_public_api(
    tree: Path, tmp_path: Path
) -> None:
    (tree / "vigia" / "admin" / "scratch.py").write_text(
        "from vigia.engine.stages.budget import reserve\n"
    )
    result = _lint(tree, tmp_path)
    assert "Surfaces use the engine's public API, never its modules BROKEN" in result.stdout
