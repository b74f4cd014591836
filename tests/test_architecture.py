"""The package structure: no import cycle between packages, and small modules.

The layer contract itself (imports point down) is checked by import-linter in
``scripts/test``; this test builds the import graph from the source independently.
"""

from __future__ import annotations

from pathlib import Path

import grimp

SRC = Path(__file__).resolve().parents[1] / "src" / "vigia"
# Gathers every domain's tables for Alembic: the one module allowed to import them all.
REGISTRY = "vigia.db.registry"
MAX_MODULE_LINES = 400


def _package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2])


def package_graph() -> dict[str, set[str]]:
    """Edges between the top-level packages of ``vigia`` (modules count as packages)."""
    graph = grimp.build_graph("vigia", cache_dir=None)
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        if module == REGISTRY:
            continue
        source = _package(module)
        for imported in graph.find_modules_directly_imported_by(module):
            target = _package(imported)
            if target != source:
                edges.setdefault(source, set()).add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_planted_cycle() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(edges) == [["a", "b", "c"]]


def test_no_import_cycle_between_packages() -> None:
    edges = package_graph()
    assert "vigia.engine" in edges and "vigia.llm" in edges["vigia.engine"]
    assert cycles(edges) == []


def test_no_module_over_400_lines() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in SRC.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}
