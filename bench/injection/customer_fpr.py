"""False alarms of the shipped injection detector on public customer-genre text it never saw.

Every message of Banking77 ``train`` (bank customers), CLINC150 ``train`` and ``val``
(assistant requests), SLURP ``devel`` (spoken commands) and SIB-200 ``train`` + ``dev``
(plain sentences, es/pt/en), scored by the product's ``injection.scores`` (both stages,
squeezing included). None of these sources is in the injection training data, and no
shipped head was fitted on them (``bench/injection/benign.py`` tried them in a fit that was
not shipped). All are benign, so every message at or above a sensitivity's threshold is a
false alarm. Prints, per source (and SIB-200 language), the share flagged at ``low``,
``medium`` and ``high``, the intents flagged most at ``high``, and the highest-scoring texts.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.customer_fpr``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from bench.injection.benign import SHARED, SIB_LANGS, _jsonl, _read_intents

from vigia.guardrails import injection

BATCH = 256
TOP = 12


def messages() -> dict[str, list[tuple[str, str]]]:
    """(text, intent or topic) per source, exact duplicates within a source dropped."""
    found = _read_intents()
    clinc = json.loads((SHARED / "clinc150" / "train_val.json").read_text(encoding="utf-8"))
    found["clinc150"] += [(text, intent) for text, intent in clinc["val"]]
    for code, lang in SIB_LANGS.items():
        found[f"sib200/{lang}"] = [
            (str(r["text"]), str(r["label"]))
            for split in ("train", "dev")
            for r in _jsonl(SHARED / "decide" / f"sib200_{code}_{split}.jsonl")
        ]
    return {source: unique(items) for source, items in found.items()}


def unique(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``items`` without a text already seen (case and spacing folded), in order."""
    kept: dict[str, tuple[str, str]] = {}
    for text, label in items:
        kept.setdefault(" ".join(text.lower().split()), (text, label))
    return list(kept.values())


def scored(texts: list[str]) -> list[float]:
    out: list[float] = []
    for start in range(0, len(texts), BATCH):
        out += injection.scores(texts[start : start + BATCH])
        print(f"  {min(start + BATCH, len(texts))}/{len(texts)}", end="\r", file=sys.stderr)
    return out


def main() -> None:
    thresholds = injection.get_model().thresholds
    names = ("low", "medium", "high")
    print(
        "| source | messages | "
        + " | ".join(f"flagged at {n} ({thresholds[n]:.3f})" for n in names)
        + " |"
    )
    print("|---|---|" + "---|" * len(names))
    worst: list[tuple[float, str, str]] = []
    for source, items in messages().items():
        values = scored([t for t, _ in items])
        counts = [sum(v >= thresholds[n] for v in values) for n in names]
        cells = " | ".join(f"{c / len(values):.4f} ({c})" for c in counts)
        print(f"| {source} | {len(values)} | {cells} |")
        at_high = Counter(
            i for (_, i), v in zip(items, values, strict=True) if v >= thresholds["high"]
        )
        print(f"<!-- {source}: intents most flagged at high: {at_high.most_common(8)} -->")
        worst += [(v, source, t) for (t, _), v in zip(items, values, strict=True)]
    print("\nHighest-scoring messages:")
    for value, source, text in sorted(worst, reverse=True)[:TOP]:
        print(f"- {value:.3f} [{source}] {text[:120]}")


if __name__ == "__main__":
    main()
