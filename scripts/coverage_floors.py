"""Checks the line coverage of each package of ``vigia`` against its floor.

Reads the JSON report of coverage.py (``build/coverage/coverage.json`` unless a path is
given), prints one line per package and exits 1 when a package is under its floor, has no
floor, or has a floor but no code. Root modules (``app``, ``cli``, ...) count as packages.
Floors are today's figures rounded down; raise one when its package's tests grow
(docs/testing.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPORT = Path("build/coverage/coverage.json")

FLOORS: dict[str, int] = {
    "admin": 99,
    "agents": 98,
    "app": 99,
    "cli": 66,
    "config": 94,
    "console": 94,
    "conversations": 93,
    "db": 97,
    "decide": 97,
    "demo": 95,
    "egress": 93,
    "embeddings": 95,
    "engine": 96,
    "errors": 99,
    "eval_cases": 98,
    "evaluation": 96,
    "guardrails": 94,
    "http": 96,
    "kit": 96,
    "knowledge": 92,
    "language": 99,
    "llm": 95,
    "observability": 88,
    "openai_api": 97,
    "operations": 74,
    "review": 94,
    "search": 87,
    "users": 97,
    "vigia": 99,
    "workspaces": 92,
    "worlds": 91,
}


def package_of(path: str) -> str:
    """The package (or root module) a measured file belongs to: ``src/vigia/engine/x.py``
    is ``engine``, ``src/vigia/app.py`` is ``app``, ``src/vigia/__init__.py`` is ``vigia``."""
    parts = Path(path).parts
    root = len(parts) - 1 - parts[::-1].index("vigia")
    rest = parts[root + 1 :]
    if len(rest) > 1:
        return rest[0]
    stem = Path(rest[0]).stem
    return "vigia" if stem == "__init__" else stem


def coverage_by_package(report: dict[str, object]) -> dict[str, float]:
    """Percent of statements run, per package, from a coverage.py JSON report."""
    files = report["files"]
    assert isinstance(files, dict)
    run: dict[str, int] = {}
    total: dict[str, int] = {}
    for path, data in files.items():
        package = package_of(path)
        run[package] = run.get(package, 0) + data["summary"]["covered_lines"]
        total[package] = total.get(package, 0) + data["summary"]["num_statements"]
    return {p: 100.0 * run[p] / total[p] if total[p] else 100.0 for p in total}


def failures(measured: dict[str, float], floors: dict[str, int]) -> list[str]:
    """What breaks the floors: a package under its floor, without one, or gone."""
    found = [
        f"{p}: {measured[p]:.1f}% is under its floor of {floors[p]}%"
        for p in sorted(measured.keys() & floors.keys())
        if measured[p] < floors[p]
    ]
    found += [f"{p}: no floor (add one to FLOORS)" for p in sorted(measured.keys() - floors.keys())]
    found += [f"{p}: has a floor but no code measured" for p in sorted(floors.keys() - measured)]
    return found


def main(argv: list[str]) -> int:
    report = Path(argv[1]) if len(argv) > 1 else REPORT
    measured = coverage_by_package(json.loads(report.read_text(encoding="utf-8")))
    for package in sorted(measured):
        floor = FLOORS.get(package)
        print(
            f"{package:<14} {measured[package]:5.1f}%  floor {floor if floor is not None else '-'}"
        )
    broken = failures(measured, FLOORS)
    for line in broken:
        print(f"coverage floor: {line}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
