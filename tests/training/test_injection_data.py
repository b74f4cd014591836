"""The injection classifier's extra training data and the public evaluation sets, as stored.

Both folders are written by scripts (``training/injection_data.py``,
``bench/injection_public_data.py``) that record every file's SHA-256 and row counts in a
``sources.json``. These tests read the stored files only: the digests still match, every row
carries its label, language, source and licence, and no training text is an evaluation text.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TRAINING = ROOT / "training" / "data" / "injection"
EVALUATION = ROOT / "bench" / "data" / "injection_public"


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line]


def _folded(text: object) -> str:
    return " ".join(unicodedata.normalize("NFKC", str(text)).lower().split())


def test_training_files_match_their_recorded_digests_and_counts() -> None:
    sources = json.loads((TRAINING / "sources.json").read_text(encoding="utf-8"))["sources"]
    assert set(sources) == {p.stem for p in TRAINING.glob("*.jsonl")}
    for name, meta in sources.items():
        path = TRAINING / f"{name}.jsonl"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == meta["output_sha256"], name
        assert len(_rows(path)) == meta["rows_kept"], name
        assert meta["license"] and (meta.get("sha256") or meta.get("files")), name


def test_evaluation_files_match_their_recorded_digests_and_counts() -> None:
    files = json.loads((EVALUATION / "sources.json").read_text(encoding="utf-8"))["files"]
    assert set(files) == {p.stem for p in EVALUATION.glob("*.jsonl")}
    for name, meta in files.items():
        path = EVALUATION / f"{name}.jsonl"
        assert hashlib.sha256(path.read_bytes()).hexdigest() == meta["sha256"], name
        assert len(_rows(path)) == meta["rows"], name


def test_every_row_has_a_label_language_source_and_licence() -> None:
    for path in [*TRAINING.glob("*.jsonl"), *EVALUATION.glob("*.jsonl")]:
        for row in _rows(path):
            assert row["label"] in (0, 1), path.name
            assert str(row["text"]).strip(), path.name
            assert row["lang"] and row["source"] and row["license"], path.name


def test_no_training_text_is_an_evaluation_text() -> None:
    held_out = {_folded(r["text"]) for p in EVALUATION.glob("*.jsonl") for r in _rows(p)}
    training = [_folded(r["text"]) for p in TRAINING.glob("*.jsonl") for r in _rows(p)]
    assert held_out and training
    assert not held_out.intersection(training)
    assert len(set(training)) == len(training)
