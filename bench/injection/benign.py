"""Benign customer-like text from shared public sets that are not the injection data's sources.

The injection training data has no benign customer message: its benign prompts are
questions about a paragraph (SQuAD-es, FaQuAD), task prompts (self-instruct), documents
(BIPIA) and trigger-word prompts (XSTest). These sources add ordinary requests a contact or
an assistant user writes, and plain sentences in es/pt/en:

- ``banking77``: ``banking77/train.csv`` (bank customer messages, 77 intents);
- ``clinc150``: ``clinc150/train_val.json``, its ``train`` part only (assistant requests,
  150 intents);
- ``slurp``: ``decide/slurp_devel.jsonl`` (spoken assistant commands, 71 intents);
- ``sib200``: ``decide/sib200_{spa,por,eng}_train.jsonl`` (FLORES-200 sentences; the same
  ``index_id`` is the same sentence in the three languages, so it is one group).

Not used: ``knowledge/squad_es_dev.jsonl`` and FaQuAD, where the injection dev's es/pt
benign questions come from. Sampling is by checksum (no random state): within a source,
texts are ordered by ``crc32`` of their text (SIB-200: of the index id), spread over the
intents round-robin, exact duplicates dropped. Of each source, ``HELD_SHARE`` of the groups
(by a second checksum) is held out from all fitting, to count false alarms on unseen
messages of the same genres; of the rest, at most ``FIT_PER_SOURCE`` items (SIB-200:
``SIB_IDS`` sentences in each language) are used.
"""

from __future__ import annotations

import csv
import json
import zlib
from collections import defaultdict
from pathlib import Path

from bench.injection.data import DATA, Prompt

SHARED = DATA.parent
SOURCES = ("banking77", "clinc150", "slurp", "sib200")
FIT_PER_SOURCE = 500
HELD_PER_SOURCE = 150
SIB_IDS = 250
SIB_HELD_IDS = 50
HELD_SHARE = 5
"""One group in ``HELD_SHARE`` is held out (``crc32("held" + group) % HELD_SHARE == 0``)."""
SIB_LANGS = {"spa": "es", "por": "pt", "eng": "en"}


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def _held(group: str) -> bool:
    return _crc(f"held{group}") % HELD_SHARE == 0


def _read_intents() -> dict[str, list[tuple[str, str]]]:
    """(text, intent) of each customer-message source."""
    with (SHARED / "banking77" / "train.csv").open(encoding="utf-8", newline="") as f:
        banking = [(r["text"], r["category"]) for r in csv.DictReader(f)]
    clinc = json.loads((SHARED / "clinc150" / "train_val.json").read_text(encoding="utf-8"))
    slurp = _jsonl(SHARED / "decide" / "slurp_devel.jsonl")
    return {
        "banking77": banking,
        "clinc150": [(text, intent) for text, intent in clinc["train"]],
        "slurp": [(r["text"], r["intent"]) for r in slurp],
    }


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _round_robin(items: list[tuple[str, str]]) -> list[str]:
    """Texts ordered by checksum within each intent, then taken one intent at a time."""
    by_intent: dict[str, list[str]] = defaultdict(list)
    seen: set[str] = set()
    for text, intent in sorted(items, key=lambda item: (_crc(item[0]), item[0])):
        key = " ".join(text.lower().split())
        if key and key not in seen:
            seen.add(key)
            by_intent[intent].append(text.strip())
    queues = [by_intent[name] for name in sorted(by_intent)]
    out: list[str] = []
    for depth in range(max(len(q) for q in queues)):
        out += [q[depth] for q in queues if depth < len(q)]
    return out


def _customer(source: str, items: list[tuple[str, str]]) -> tuple[list[Prompt], list[Prompt]]:
    fit: list[Prompt] = []
    held: list[Prompt] = []
    for text in _round_robin(items):
        group = f"{source}-{_crc(text):08x}"
        prompt = Prompt(text, 0, "en", source, "customer", group)
        if _held(group):
            if len(held) < HELD_PER_SOURCE:
                held.append(prompt)
        elif len(fit) < FIT_PER_SOURCE:
            fit.append(prompt)
    return fit, held


def _sib() -> tuple[list[Prompt], list[Prompt]]:
    texts: dict[str, dict[int, str]] = {}
    for code, lang in SIB_LANGS.items():
        rows = _jsonl(SHARED / "decide" / f"sib200_{code}_train.jsonl")
        texts[lang] = {int(str(r["index_id"])): str(r["text"]) for r in rows}
    ids = sorted(set.intersection(*(set(t) for t in texts.values())), key=lambda i: _crc(str(i)))
    fit_ids = [i for i in ids if not _held(f"sib200-{i}")][:SIB_IDS]
    held_ids = [i for i in ids if _held(f"sib200-{i}")][:SIB_HELD_IDS]

    def prompts(chosen: list[int]) -> list[Prompt]:
        return [
            Prompt(texts[lang][i], 0, lang, "sib200", "sentence", f"sib200-{i}")
            for i in chosen
            for lang in texts
        ]

    return prompts(fit_ids), prompts(held_ids)


def read_benign() -> tuple[list[Prompt], list[Prompt]]:
    """The benign prompts to fit on and the held-out slice, every source in turn."""
    fit: list[Prompt] = []
    held: list[Prompt] = []
    for source, items in _read_intents().items():
        part_fit, part_held = _customer(source, items)
        fit += part_fit
        held += part_held
    part_fit, part_held = _sib()
    return fit + part_fit, held + part_held
