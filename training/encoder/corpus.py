"""The es/pt/en texts the encoder steps read, from the public dev-data folder.

The folder is given by ``--data`` or the ``VIGIA_BENCH_DATA`` environment variable; files
are named relative to it and their SHA-256 is recorded in the manifest. Rows from SQuAD-es
dev (``squad-es``, ``knowledge/squad_es_dev.jsonl``) are left out: they are a dev split (its
curator already removed the paragraphs a held-out set was translated from), and the kept
vocabulary is chosen on training splits only.
"""

from __future__ import annotations

import csv
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path

LANGS = ("es", "pt", "en")
EXCLUDED_SOURCES = frozenset({"squad-es"})

# Training splits only: these choose the kept vocabulary and the equivalence sample.
TRAIN_FILES = (
    "injection/train.jsonl",
    "decide/sib200_spa_train.jsonl",
    "decide/sib200_por_train.jsonl",
    "decide/sib200_eng_train.jsonl",
    "banking77/train.csv",
    "clinc150/train_val.json",
)
# Held out from the vocabulary choice: they measure what pruning changes.
HELD_OUT_FILES = (
    "injection/dev.jsonl",
    "decide/sib200_spa_dev.jsonl",
    "decide/sib200_por_dev.jsonl",
    "decide/sib200_eng_dev.jsonl",
    "knowledge/faquad_pt_dev.jsonl",
)
_SIB_LANG = {"spa": "es", "por": "pt", "eng": "en"}


def data_dir(explicit: Path | None) -> Path:
    """The dev-data folder: ``explicit`` or ``$VIGIA_BENCH_DATA``."""
    if explicit is not None:
        return explicit
    env = os.environ.get("VIGIA_BENCH_DATA")
    if not env:
        raise SystemExit("give the data folder with --data or VIGIA_BENCH_DATA")
    return Path(env)


def _jsonl(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def read_file(root: Path, name: str) -> Iterator[tuple[str, str]]:
    """``(lang, text)`` pairs of one file, es/pt/en only."""
    path = root / name
    if name.startswith("injection/"):
        for row in _jsonl(path):
            if row["lang"] in LANGS and row["source"] not in EXCLUDED_SOURCES:
                yield str(row["lang"]), str(row["text"])
    elif name.startswith("decide/sib200_"):
        lang = _SIB_LANG[name.split("_")[1]]
        for row in _jsonl(path):
            yield lang, str(row["text"])
    elif name == "banking77/train.csv":
        with path.open(encoding="utf-8", newline="") as handle:
            for record in csv.DictReader(handle):
                yield "en", record["text"]
    elif name == "clinc150/train_val.json":
        data = json.loads(path.read_text(encoding="utf-8"))
        for text, _intent in data["train"]:
            yield "en", str(text)
    elif name == "knowledge/faquad_pt_dev.jsonl":
        for row in _jsonl(path):
            yield "pt", str(row["context"])
            for question in row.get("questions", []):  # type: ignore[attr-defined]
                yield "pt", str(question["question"])
    else:
        raise ValueError(f"no reader for {name}")


def read_files(root: Path, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """All ``(lang, text)`` pairs of ``names``, deduplicated, in file order."""
    seen: set[str] = set()
    out: list[tuple[str, str]] = []
    for name in names:
        for lang, text in read_file(root, name):
            if text.strip() and text not in seen:
                seen.add(text)
                out.append((lang, text))
    return out


def sample_by_language(
    pairs: list[tuple[str, str]], total: int, seed: int = 13
) -> list[tuple[str, str]]:
    """``total`` pairs, as equal per language as the data allows, in a seeded order."""
    rng = random.Random(seed)
    by_lang = {lang: [p for p in pairs if p[0] == lang] for lang in LANGS}
    for items in by_lang.values():
        rng.shuffle(items)
    share = total // len(LANGS)
    chosen: list[tuple[str, str]] = []
    for lang in LANGS:
        chosen.extend(by_lang[lang][:share])
    rest = [p for lang in LANGS for p in by_lang[lang][share:]]
    rng.shuffle(rest)
    chosen.extend(rest[: total - len(chosen)])
    return chosen
