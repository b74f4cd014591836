"""The development data of the decisions benchmark, its fixed split and its stored vectors.

Read from ``VIGIA_BENCH_DATA`` (default ``../shared/data`` next to the checkout):

- CLINC150 ``train`` (10 shots + 10 fit queries per intent; ``oos_train``) and ``val`` /
  ``oos_val`` (reported).
- Banking77 ``train`` only: per intent 10 shots, 20 fit queries and 20 reported queries.
- SIB-200 ``spa``/``por``/``eng``: ``train`` is fitted on, ``dev`` reported.
- SLURP ``devel``: reported only, never fitted on (the held-out dataset).

Vectors of every text are computed once per encoder, as the product computes them (each
text alone), and kept in ``bench/.out/``.
"""

from __future__ import annotations

import collections
import csv
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

from vigia.decide.encoder import TextEncoder
from vigia.embeddings import Embedder, VectorCache, Vectors, get_embedder

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data"))
OUT = ROOT / "bench" / ".out"
SHOTS = 10
SIB_LANGUAGES = {"es": "spa", "pt": "por", "en": "eng"}
SAVE_EVERY = 1_000

Pairs = list[tuple[str, str]]


def _read_jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def splits(seed: int = 7) -> dict[str, Pairs]:
    """The fixed partition of the development data (same seed, same parts).

    Parts named ``*_fit``, ``*_shots`` and ``*_calib`` may be fitted on; the others are
    reported only.
    """
    data = json.loads((DATA / "clinc150" / "train_val.json").read_text())
    rng = random.Random(seed)
    by_intent: dict[str, list[str]] = collections.defaultdict(list)
    for text, intent in data["train"]:
        by_intent[intent].append(text)
    parts: dict[str, Pairs] = collections.defaultdict(list)
    for intent in sorted(by_intent):
        texts = by_intent[intent][:]
        rng.shuffle(texts)
        parts["clinc_shots"] += [(t, intent) for t in texts[:SHOTS]]
        parts["clinc_calib"] += [(t, intent) for t in texts[SHOTS : 2 * SHOTS]]
    parts["clinc_val"] = [(t, i) for t, i in data["val"]]
    parts["clinc_oos_calib"] = [(t, i) for t, i in data["oos_train"]]
    parts["clinc_oos_val"] = [(t, i) for t, i in data["oos_val"]]
    banking: dict[str, list[str]] = collections.defaultdict(list)
    with (DATA / "banking77" / "train.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            banking[row["category"]].append(row["text"].strip())
    for intent in sorted(banking):
        texts = banking[intent][:]
        rng.shuffle(texts)
        parts["banking_shots"] += [(t, intent) for t in texts[:SHOTS]]
        parts["banking_eval"] += [(t, intent) for t in texts[SHOTS : SHOTS + 20]]
        parts["banking_fit"] += [(t, intent) for t in texts[SHOTS + 20 : SHOTS + 40]]
    for lang, code in SIB_LANGUAGES.items():
        for split in ("train", "dev"):
            rows = _read_jsonl(DATA / "decide" / f"sib200_{code}_{split}.jsonl")
            parts[f"sib_{lang}_{split}"] = [(str(r["text"]), str(r["label"])) for r in rows]
    slurp = _read_jsonl(DATA / "decide" / "slurp_devel.jsonl")
    parts["slurp_devel"] = [(str(r["text"]), str(r["intent"])) for r in slurp]
    return dict(parts)


class StoredEmbedder:
    """An encoder that answers from vectors computed before, embedding (and keeping) the rest."""

    def __init__(self, embedder: Embedder, known: dict[str, np.ndarray]) -> None:
        self.name, self.dim = embedder.name, embedder.dim
        self.known = known
        self._embedder = embedder

    def queries(self, texts: list[str]) -> Vectors:
        for text in texts:
            if text not in self.known:
                self.known[text] = self._embedder.queries([text])[0]
        return np.stack([self.known[t] for t in texts]).astype(np.float32)

    def passages(self, texts: list[str]) -> Vectors:
        raise NotImplementedError("the decision model embeds queries only")


def _save(path: Path, known: dict[str, np.ndarray]) -> None:
    np.savez(path, texts=np.array(list(known)), vectors=np.stack(list(known.values())))


def cached_encoder(names: list[str], texts: list[str]) -> TextEncoder:
    """The product's encoder with every text's vector loaded from (or saved to) bench/.out.

    It has a cache of its own: the product's cache stays cold for the latency figures.
    Progress is saved every ``SAVE_EVERY`` texts, so an interrupted run loses little.
    """
    OUT.mkdir(parents=True, exist_ok=True)
    encoders: dict[str, Embedder] = {}
    for name in names:
        path = OUT / f"decide-vectors-{name}.npz"
        known: dict[str, np.ndarray] = {}
        if path.exists():
            stored = np.load(path)
            known = dict(zip(stored["texts"].tolist(), stored["vectors"], strict=True))
        encoder = StoredEmbedder(get_embedder(name), known)
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            started = time.perf_counter()
            print(f"embedding {len(missing)} texts with {name}…", file=sys.stderr)
            for start in range(0, len(missing), SAVE_EVERY):
                encoder.queries(missing[start : start + SAVE_EVERY])
                _save(path, known)
                print(f"  {start + SAVE_EVERY} texts", file=sys.stderr)
            print(f"  {time.perf_counter() - started:.0f} s", file=sys.stderr)
        encoders[name] = encoder
    return TextEncoder(encoders, VectorCache())
