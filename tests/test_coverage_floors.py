"""The coverage floors of ``scripts/coverage_floors.py``: each package is measured on its own,
a package under its floor or without one fails the check, and docs/testing.md lists the
same floors as the script."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "coverage_floors.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coverage_floors", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FLOORS: dict[str, int] = _script().FLOORS


def _file(covered: int, statements: int) -> dict[str, Any]:
    return {"summary": {"covered_lines": covered, "num_statements": statements}}


def _report_at(percent: dict[str, int]) -> dict[str, Any]:
    """A coverage.py JSON report with one 100-statement file per package."""
    files = {}
    for package, covered in percent.items():
        name = "__init__.py" if package == "vigia" else f"{package}/code.py"
        files[f"src/vigia/{name}"] = _file(covered, 100)
    return {"files": files}


def _check(tmp_path: Path, report: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )


def test_files_count_toward_their_package_or_root_module() -> None:
    package_of = _script().package_of
    assert package_of("src/vigia/engine/stages/budget.py") == "engine"
    assert package_of("/srv/vigia/src/vigia/app.py") == "app"
    assert package_of("src/vigia/__init__.py") == "vigia"


def test_a_package_is_measured_over_all_its_files() -> None:
    report = {
        "files": {
            "src/vigia/engine/a.py": _file(10, 10),
            "src/vigia/engine/b.py": _file(0, 30),
            "src/vigia/kit/cache.py": _file(3, 4),
        }
    }
    assert _script().coverage_by_package(report) == {"engine": 25.0, "kit": 75.0}


def test_every_package_at_its_floor_passes(tmp_path: Path) -> None:
    done = _check(tmp_path, _report_at(dict(FLOORS)))
    assert done.returncode == 0, done.stderr
    assert "engine" in done.stdout


def test_a_package_under_its_floor_fails(tmp_path: Path) -> None:
    below = {**FLOORS, "engine": FLOORS["engine"] - 1}
    done = _check(tmp_path, _report_at(below))
    assert done.returncode == 1
    assert "engine" in done.stderr and "under its floor" in done.stderr


def test_a_package_without_a_floor_fails(tmp_path: Path) -> None:
    report = _report_at(dict(FLOORS))
    report["files"]["src/vigia/brand_new/code.py"] = _file(100, 100)
    done = _check(tmp_path, report)
    assert done.returncode == 1
    assert "brand_new: no floor" in done.stderr


def test_a_floor_whose_package_is_gone_fails(tmp_path: Path) -> None:
    report = _report_at({p: f for p, f in FLOORS.items() if p != "worlds"})
    done = _check(tmp_path, report)
    assert done.returncode == 1
    assert "worlds: has a floor but no code measured" in done.stderr


def test_docs_list_the_same_floors_as_the_script() -> None:
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| [\d.]+% \| (\d+) \|$", text, flags=re.MULTILINE)
    assert {name: int(floor) for name, floor in rows} == FLOORS
