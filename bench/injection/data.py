"""The shared injection data (``injection/{train,dev}.jsonl``) and the team's prompt files.

Files are read from ``VIGIA_BENCH_DATA`` (default ``../shared/data`` next to the checkout).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data")) / "injection"
OUT = ROOT / "bench" / ".out"
TEAM = ROOT / "bench" / "data" / "guardrails"


@dataclass(frozen=True)
class Prompt:
    text: str
    label: int
    lang: str
    source: str
    kind: str
    group: str


def read_split(name: str) -> list[Prompt]:
    """``train`` or ``dev``: the labelled prompts, in file order."""
    rows = [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line]
    return [
        Prompt(r["text"], int(r["label"]), r["lang"], r["source"], r["kind"], r["group"])
        for r in rows
    ]


def read_team(name: str) -> list[Prompt]:
    """A team file of ``bench/data/guardrails`` (``label<TAB>lang<TAB>text`` lines): the
    fitted ``injection_team_train.txt`` or the held-out ``injection_eval.txt``."""
    out = []
    for n, line in enumerate((TEAM / name).read_text(encoding="utf-8").splitlines()):
        if line.strip() and not line.startswith("#"):
            label, lang, text = line.split("\t", 2)
            out.append(Prompt(text, int(label), lang, "team", "team", f"team-{n}"))
    return out
