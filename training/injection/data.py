"""The injection classifier's training rows and its group-aware validation slice.

Rows: the shared ``injection/train.jsonl`` (all sources), every file of
``training/data/injection`` (public sources, provenance in its ``sources.json``) and the
team's ``bench/data/guardrails/injection_team_train.txt`` (es/pt/en customer messages and
attacks written for Vigia; its ``injection_eval.txt`` stays held out). A row is
``text``, ``label`` (1 attack, 0 benign), ``lang``, ``source``, ``group``; a row without a
group (the extra files) is its own group.

Validation: within each source, ``VALIDATION_SHARE`` of the groups (seeded shuffle), so
texts of one group never straddle the split and every source and language is represented
on both sides. It chooses the epoch and the thresholds; the shared dev split is not read
here.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXTRA_DIR = ROOT / "training" / "data" / "injection"
SHARED_TRAIN = "injection/train.jsonl"
TEAM_TRAIN = ROOT / "bench" / "data" / "guardrails" / "injection_team_train.txt"
VALIDATION_SHARE = 0.15
SEED = 13


@dataclass(frozen=True)
class Row:
    """One labelled text."""

    text: str
    label: int
    lang: str
    source: str
    group: str


def _read(path: Path, name: str) -> list[Row]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for index, line in enumerate(handle):
            item = json.loads(line)
            rows.append(
                Row(
                    text=item["text"],
                    label=int(item["label"]),
                    lang=item.get("lang", "other"),
                    source=item["source"],
                    group=item.get("group") or f"{name}:{index}",
                )
            )
    return rows


def _read_team(path: Path) -> list[Row]:
    rows = []
    for index, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if line.strip() and not line.startswith("#"):
            label, lang, text = line.split("\t", 2)
            rows.append(Row(text, int(label), lang, "team", f"team:{index}"))
    return rows


def input_files(data: Path) -> list[Path]:
    """Every file the rows come from: shared train, the extra files, the team's file."""
    return [data / SHARED_TRAIN, *sorted(EXTRA_DIR.glob("*.jsonl")), TEAM_TRAIN]


def load_rows(data: Path) -> list[Row]:
    """All training rows, shared train first."""
    rows: list[Row] = []
    for path in input_files(data):
        rows.extend(_read_team(path) if path == TEAM_TRAIN else _read(path, path.stem))
    return rows


def split(rows: list[Row]) -> tuple[list[Row], list[Row]]:
    """``(fit, validation)``: per source, a seeded ``VALIDATION_SHARE`` of the groups."""
    groups_by_source: dict[str, dict[str, None]] = defaultdict(dict)
    for row in rows:
        groups_by_source[row.source][row.group] = None
    held: set[str] = set()
    for source in sorted(groups_by_source):
        groups = sorted(groups_by_source[source])
        random.Random(f"{SEED}:{source}").shuffle(groups)
        held.update(groups[: max(1, round(len(groups) * VALIDATION_SHARE))])
    fit = [r for r in rows if r.group not in held]
    validation = [r for r in rows if r.group in held]
    return fit, validation


def digest(rows: list[Row]) -> str:
    """SHA-256 of the rows' texts and labels, in order (names a slice in the records)."""
    h = hashlib.sha256()
    for row in rows:
        h.update(f"{row.label}\t{row.text}\n".encode())
    return h.hexdigest()
