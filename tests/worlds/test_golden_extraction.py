"""Every entity and edge the extractor finds in the two test worlds, against the golden
files ``tests/worlds/golden/<world>.jsonl`` (one JSON object a line: a file with its kind
and copybooks, then its entities and edges, in extraction order).

A change to the extractor that adds, drops or alters anything fails here with the diff.
When the change is meant, regenerate with ``VIGIA_UPDATE_GOLDEN=1`` and review the diff
of the golden files (docs/testing.md)."""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest

from vigia.worlds.graph.extraction import Edge, Entity
from vigia.worlds.ingest.indexer import extract_folder

from .conftest import CICS, PAYROLL

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("VIGIA_UPDATE_GOLDEN") == "1"
SHOWN_DIFF_LINES = 60


def _entity(entity: Entity) -> dict[str, object]:
    row: dict[str, object] = {
        "entity": entity.kind,
        "key": entity.key,
        "name": entity.name,
        "at": f"{entity.path}:{entity.line_start}-{entity.line_end}",
    }
    for name in ("program", "level", "origin", "detail"):
        if (value := getattr(entity, name)) is not None:
            row[name] = value
    return row


def _edge(edge: Edge) -> dict[str, object]:
    row: dict[str, object] = {
        "edge": edge.kind,
        "src": edge.src_key,
        "dst": edge.dst_key,
        "at": f"{edge.path}:{edge.line}",
    }
    if edge.detail is not None:
        row["detail"] = edge.detail
    return row


def golden_lines(root: Path) -> list[str]:
    """The golden file's lines for the world in ``root``."""
    lines: list[str] = []
    for path, kind, found in extract_folder(root):
        rows: list[dict[str, object]] = [{"file": path, "kind": kind, "copies": found.copies}]
        rows += [_entity(e) for e in found.entities] + [_edge(e) for e in found.edges]
        lines += [json.dumps(r, ensure_ascii=False, separators=(", ", ": ")) for r in rows]
    return lines


@pytest.mark.parametrize(("world", "root"), [("payroll", PAYROLL), ("cics", CICS)])
def test_extraction_matches_the_golden_file(world: str, root: Path) -> None:
    golden = GOLDEN / f"{world}.jsonl"
    found = golden_lines(root)
    if UPDATE:
        golden.write_text("\n".join(found) + "\n", encoding="utf-8")
    expected = golden.read_text(encoding="utf-8").splitlines()
    diff = list(difflib.unified_diff(expected, found, str(golden), "extracted", lineterm=""))
    shown = "\n".join(diff[:SHOWN_DIFF_LINES])
    assert not diff, (
        f"extraction of tests/worlds/{root.name} differs from {golden.name} "
        f"(if meant: VIGIA_UPDATE_GOLDEN=1, then review the diff):\n{shown}"
    )


def test_the_golden_files_hold_every_kind_the_test_worlds_exercise() -> None:
    """The golden files are not empty shells: programs, paragraphs, data, copybooks, JCL
    steps, SQL tables, CICS resources and the edges between them are all there."""
    rows = [
        json.loads(line)
        for world in ("payroll", "cics")
        for line in (GOLDEN / f"{world}.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    entities = {r["entity"] for r in rows if "entity" in r}
    edges = {r["edge"] for r in rows if "edge" in r}
    assert {"program", "paragraph", "data", "copybook", "job", "step", "table", "map"} <= entities
    assert {"calls", "performs", "copies", "reads", "writes", "executes"} <= edges
    files = [r["file"] for r in rows if "file" in r]
    assert "src/CRDCHK.cbl" in files and "copy/PAYREC.cpy" in files
