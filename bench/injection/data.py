"""The shared injection data (``injection/{train,dev}.jsonl``) and its stored USE vectors.

Files are read from ``VIGIA_BENCH_DATA`` (default ``../shared/data`` next to the checkout).
Every text the detector embeds (each prompt clipped, and its segments) is embedded once, as
the product embeds it, and kept in ``bench/.out/injection-use.npz``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vigia.embeddings import EncoderName, Vectors, get_embedder
from vigia.guardrails.injection_text import clipped, segments

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data")) / "injection"
OUT = ROOT / "bench" / ".out"
BATCH = 64
SAVE_EVERY = 20


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


def read_unsafe() -> list[Prompt]:
    """XSTest's unsafe contrast prompts: harmful requests, not injections (label 0 here)."""
    path = DATA / "xstest_unsafe.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line]
    return [Prompt(r["text"], 0, r["lang"], "xstest-unsafe", r["type"], r["id"]) for r in rows]


TEAM_TRAIN = ROOT / "bench" / "data" / "guardrails" / "injection_team_train.txt"


def read_team_train() -> list[Prompt]:
    """The team's 239 prompts of ``injection_team_train.txt`` (``label<TAB>lang<TAB>text``),
    source ``team``, each its own group."""
    out = []
    for n, line in enumerate(TEAM_TRAIN.read_text(encoding="utf-8").splitlines()):
        if line.strip() and not line.startswith("#"):
            label, lang, text = line.split("\t", 2)
            out.append(Prompt(text, int(label), lang, "team", "team", f"team-{n}"))
    return out


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


class StoredVectors:
    """Vectors of texts by one encoder (``use`` or ``e5``, query side), loaded from and saved
    to ``bench/.out/injection-{encoder}.npz`` (and any ``injection-{encoder}-*.npz`` parts
    written by parallel runs); computes the missing."""

    def __init__(self, path: Path | None = None, encoder: EncoderName = "use") -> None:
        self.encoder: EncoderName = encoder
        self.path = path or OUT / f"injection-{encoder}.npz"
        self.known: dict[str, np.ndarray] = {}
        for part in [self.path, *sorted(OUT.glob(f"injection-{encoder}-*.npz"))]:
            if part.exists() and ".tmp" not in part.name:
                stored = np.load(part)
                self.known.update(zip(stored["keys"].tolist(), stored["vectors"], strict=True))

    def missing(self, texts: list[str]) -> list[str]:
        """Those of ``texts`` not stored yet."""
        return [t for t in texts if _digest(t) not in self.known]

    def __call__(self, texts: list[str]) -> Vectors:
        keys = [_digest(t) for t in texts]
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self.known}
        if missing:
            self._embed(missing)
        return np.stack([self.known[k] for k in keys]).astype(np.float32)

    def _embed(self, missing: dict[str, str]) -> None:
        embedder = get_embedder(self.encoder)
        todo = list(missing.items())
        started = time.perf_counter()
        print(f"embedding {len(todo)} texts with {self.encoder}…", file=sys.stderr)
        for i in range(0, len(todo), BATCH):
            part = todo[i : i + BATCH]
            for (key, _), row in zip(part, embedder.queries([t for _, t in part]), strict=True):
                self.known[key] = row
            if (i // BATCH) % SAVE_EVERY == SAVE_EVERY - 1:
                self.save()
                print(
                    f"  {i + len(part)} in {time.perf_counter() - started:.0f} s", file=sys.stderr
                )
        self.save()
        print(f"  done in {time.perf_counter() - started:.0f} s", file=sys.stderr)

    def save(self) -> None:
        OUT.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(list(self.known)), vectors=np.stack(list(self.known.values())))
        tmp.replace(self.path)


def embed_all(prompts: list[Prompt], vectors: StoredVectors) -> None:
    """Makes sure every text the detector would embed for ``prompts`` is stored."""
    texts = [clipped(p.text) for p in prompts] + [s for p in prompts for s in segments(p.text)]
    vectors(list(dict.fromkeys(texts)))
