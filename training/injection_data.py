"""Writes the extra public training data of the injection classifier (``training/data/injection``).

The shared injection data (``injection/train.jsonl``) lacks benign persona set-ups, customer
turns (with override words used innocently), Portuguese multiple-choice questions and plain
es/pt sentences, and has few jailbreak templates. This module adds them from public,
licensed sources nobody here wrote (read by ``training/injection_sources.py``),
one JSONL file per source (``text``, ``label`` 1 attack / 0 benign, ``lang``, ``source``,
``kind``, ``license``), and ``sources.json`` with, per source, the repository or package,
commit or version, path, licence, SHA-256 of the raw file, rows kept and the filter used.

Every candidate is dropped when it is, after folding (NFKC, lower case, spaces), equal to a
text of the shared injection train or dev split, of the public evaluation sets
(``bench/data/injection_public`` and the sets it references: CLINC150, Banking77), or when
it is a near duplicate of a dev or evaluation text: Jaccard >= 0.4 on word 5-grams
(character 4-grams below 8 words), the rule the shared split used, or a near duplicate of a
shared train text with the other label.

Inputs are read, never fetched: bare git mirrors under ``--mirror`` (``owner+name/repo``),
the PyRIT wheel (``--pyrit-wheel``, fetched once with ``pip download --no-deps -d
bench/.out/wheels pyrit==1.1.0``) and the shared data folder (``VIGIA_BENCH_DATA``).

Run: ``.venv/bin/python -m training.injection_data --mirror DIR --pyrit-wheel WHEEL``.
"""

from __future__ import annotations

import argparse
import csv
import json
import unicodedata
import zipfile
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from training.injection_sources import (
    ENEM,
    JAILBREAK_MARKERS,
    MAX_CHARS,
    OVERRIDE,
    PROMPTS,
    PYRIT,
    SGD,
    SGD_FILES,
    SGD_SAMPLE,
    SHARED,
    TASKMASTER,
    TASKMASTER_SAMPLE,
    enem_questions,
    git_show,
    jailbreak_templates,
    persona_prompts,
    sgd_turns,
    sha256,
    sib_sentences,
    taskmaster_turns,
)

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "training" / "data" / "injection"
EVAL_DIR = ROOT / "bench" / "data" / "injection_public"
NEAR = 0.4


def folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().split())


def shingles(text: str) -> set[str]:
    words = folded(text).split()
    if len(words) < 8:
        flat = " ".join(words)
        return {flat[i : i + 4] for i in range(max(1, len(flat) - 3))}
    return {" ".join(words[i : i + 5]) for i in range(len(words) - 4)}


class Guard:
    """Exact (folded) and near-duplicate filter against texts that must stay unseen."""

    def __init__(self, exact: Iterable[str], near: Iterable[str]) -> None:
        self.exact = {folded(t) for t in exact}
        self.sets: list[set[str]] = []
        self.index: dict[str, list[int]] = defaultdict(list)
        for text in near:
            self.exact.add(folded(text))
            grams = shingles(text)
            for gram in grams:
                self.index[gram].append(len(self.sets))
            self.sets.append(grams)

    def admits(self, text: str) -> bool:
        key = folded(text)
        if not key or key in self.exact:
            return False
        grams = shingles(text)
        shared: dict[int, int] = defaultdict(int)
        for gram in grams:
            for doc in self.index.get(gram, ()):
                shared[doc] += 1
        for doc, common in shared.items():
            if common / len(grams | self.sets[doc]) >= NEAR:
                return False
        self.exact.add(key)
        return True


def guard() -> Guard:
    """Texts the classifier must not be fitted on: shared splits, evaluation sets."""

    def jsonl(path: Path) -> list[str]:
        lines = path.read_text(encoding="utf-8").split("\n")
        return [str(json.loads(line)["text"]) for line in lines if line]

    train = jsonl(SHARED / "injection" / "train.jsonl")
    near = jsonl(SHARED / "injection" / "dev.jsonl")
    for path in sorted(EVAL_DIR.glob("*.jsonl")):
        near += jsonl(path)
    clinc = json.loads((SHARED / "clinc150" / "train_val.json").read_text(encoding="utf-8"))
    customers = [text for part in clinc.values() for text, _ in part]
    with (SHARED / "banking77" / "train.csv").open(encoding="utf-8", newline="") as f:
        customers += [r["text"] for r in csv.DictReader(f)]
    return Guard(train + customers, near)


def opposite_labels() -> dict[int, Guard]:
    """Per label, a filter of near duplicates of shared train texts with the other label
    (deepset labels some role-play set-ups as attacks; such a persona prompt is left out
    rather than taught both ways)."""
    lines = (SHARED / "injection" / "train.jsonl").read_text(encoding="utf-8").split("\n")
    rows = [json.loads(line) for line in lines if line]
    return {
        label: Guard([], [str(r["text"]) for r in rows if r["label"] != label]) for label in (0, 1)
    }


def write_rows(
    folder: Path, name: str, rows: list[dict[str, object]], read: int
) -> dict[str, object]:
    """Writes ``rows`` to ``folder/name.jsonl`` and returns what its ``sources.json`` entry
    records of it: rows read and kept, rows per language and label, the file's SHA-256."""
    body = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    (folder / f"{name}.jsonl").write_text(body, encoding="utf-8")
    counts: dict[str, int] = defaultdict(int)
    for r in rows:
        counts[f"{r['lang']}/{r['label']}"] += 1
    print(f"{name}: {len(rows)} of {read} kept {dict(sorted(counts.items()))}")
    return {
        "rows_read": read,
        "rows_kept": len(rows),
        "by_lang_label": dict(sorted(counts.items())),
        "output_sha256": sha256(body.encode("utf-8")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, required=True, help="folder of bare git mirrors")
    parser.add_argument("--pyrit-wheel", type=Path, required=True, help=f"the {PYRIT} wheel")
    args = parser.parse_args()
    sources: dict[str, dict[str, object]] = {}
    built: dict[str, list[dict[str, object]]] = {}

    repo, commit = PROMPTS
    raw = git_show(args.mirror, repo, commit, "prompts.csv")
    built["awesome-chatgpt-prompts"] = persona_prompts(raw)
    sources["awesome-chatgpt-prompts"] = {
        "repo": repo, "commit": commit, "path": "prompts.csv", "license": "CC0-1.0",
        "sha256": sha256(raw),
        "filter": f"type TEXT, at most {MAX_CHARS} characters, no jailbreak marker "
        f"({JAILBREAK_MARKERS.pattern!r}); label 0; lang by stop words",
    }  # fmt: skip

    wheel_bytes = args.pyrit_wheel.read_bytes()
    with zipfile.ZipFile(args.pyrit_wheel) as wheel:
        built["pyrit-jailbreak"] = jailbreak_templates(wheel)
    sources["pyrit-jailbreak"] = {
        "package": PYRIT, "file": args.pyrit_wheel.name, "sha256": sha256(wheel_bytes),
        "path": "pyrit/datasets/jailbreak/templates/**/*.yaml",
        "license": "MIT (PyRIT; templates collected from jailbreakchat and Shen et al. 2023; "
        "AdvBench behaviours MIT, llm-attacks)",
        "filter": "templates whose only parameter is prompt, {{ prompt }} = the AdvBench "
        "behaviour at crc32(file name) mod 520 "
        "(pyrit/datasets/seed_datasets/local/adv_bench.prompt), at most "
        f"{MAX_CHARS} characters; label 1",
    }  # fmt: skip

    repo, commit = TASKMASTER
    paths = [f"TM-4-2024/data/data_0{i}.json" for i in range(8)]
    files = [git_show(args.mirror, repo, commit, p) for p in paths]
    built["taskmaster4"] = taskmaster_turns(files)
    sources["taskmaster4"] = {
        "repo": repo, "commit": commit, "path": paths, "license": "CC-BY-4.0",
        "sha256": [sha256(f) for f in files],
        "filter": "user turns, deduplicated; every turn matching "
        f"{OVERRIDE.pattern!r}, then by crc32 order up to {TASKMASTER_SAMPLE}; label 0",
    }  # fmt: skip

    repo, commit = SGD
    paths = SGD_FILES
    files = [git_show(args.mirror, repo, commit, p) for p in paths]
    built["sgd"] = sgd_turns(files)
    sources["sgd"] = {
        "repo": repo, "commit": commit, "path": paths, "license": "CC-BY-SA-4.0",
        "sha256": [sha256(f) for f in files],
        "filter": "USER turns of 96 of the 127 train dialogue files (the others were absent "
        "from the snapshot used), deduplicated; every turn matching "
        f"{OVERRIDE.pattern!r}, then by crc32 order up to {SGD_SAMPLE}; label 0",
    }  # fmt: skip

    repo, commit = ENEM
    raw = git_show(args.mirror, repo, commit, "data/enem/2024.jsonl")
    built["enem-2024"] = enem_questions(raw)
    sources["enem-2024"] = {
        "repo": repo, "commit": commit, "path": "data/enem/2024.jsonl",
        "license": "MIT (repository LICENSE; ENEM is a public exam of INEP, Brazil)",
        "sha256": sha256(raw),
        "filter": "stem of 20+ characters once image placeholders are removed, 5 "
        "alternatives; text = stem and 'A) …' to 'E) …' lines; label 0",
    }  # fmt: skip

    built["sib200"], metas = sib_sentences()
    sources["sib200"] = {
        "repo": "dadelani/sib-200 (train split, via the shared data folder)",
        "files": metas, "license": "CC-BY-SA-4.0 (FLORES-200 sentences; repo Apache-2.0)",
        "filter": "every train sentence of spa_Latn, por_Latn, eng_Latn; label 0",
    }  # fmt: skip

    keep = guard()
    conflicts = opposite_labels()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    for name, rows in built.items():
        kept = [
            r
            for r in rows
            if keep.admits(str(r["text"]))
            and conflicts[int(str(r["label"]))].admits(str(r["text"]))
        ]
        sources[name].update(write_rows(OUT_DIR, name, kept, len(rows)))
    note = (
        "Dropped: exact (NFKC, lower case, spaces) duplicates of shared injection train/dev, "
        "CLINC150, Banking77 and bench/data/injection_public texts, duplicates across these "
        f"files, and near duplicates (Jaccard >= {NEAR} on word 5-grams, character 4-grams "
        "below 8 words) of shared dev and bench/data/injection_public texts, and of shared "
        "train texts with the other label."
    )
    document = {"note": note, "sources": sources}
    (OUT_DIR / "sources.json").write_text(
        json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
