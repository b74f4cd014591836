"""Accuracy of the customer-triggered handoff rule on bench/data/handoff/phrasings.jsonl.

Prints accuracy, missed requests and false handoffs (look-alikes it would hand off), by
language. Run: ``.venv/bin/python bench/handoff_trigger.py [--show]``.

With ``--clinc FILE`` (CLINC150 ``data_full.json`` layout: train, val, oos_train, oos_val) and
``--banking FILE`` (Banking77 ``train.csv``) it also hands off every public customer query in
them that the phrasings file does not hold: a held-out count of false handoffs, listed so a
reader can see which hits really ask for a person.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from pathlib import Path

from vigia.conversations.person_request import asks_for_person

DATA = Path(__file__).parent / "data" / "handoff" / "phrasings.jsonl"


def main(show: bool) -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    wrong = [r for r in rows if asks_for_person(r["text"]) != bool(r["label"])]
    requests = [r for r in rows if r["label"] == 1]
    lookalikes = [r for r in rows if r["label"] == 0]
    missed = [r for r in wrong if r["label"] == 1]
    false = [r for r in wrong if r["label"] == 0]
    print(f"items {len(rows)}: {len(requests)} requests, {len(lookalikes)} look-alikes")
    print(f"accuracy {1 - len(wrong) / len(rows):.3f}")
    print(f"missed requests {len(missed)}/{len(requests)} ({len(missed) / len(requests):.1%})")
    print(f"false handoffs {len(false)}/{len(lookalikes)} ({len(false) / len(lookalikes):.1%})")
    for lang in ("es", "pt", "en"):
        of = [r for r in rows if r["lang"] == lang]
        bad = [r for r in wrong if r["lang"] == lang]
        print(f"  {lang}: accuracy {1 - len(bad) / len(of):.3f} ({len(of)} items)")
    if show:
        for r in wrong:
            print(f"  {'missed' if r['label'] else 'false'}: {r['text']}")


def public_queries(clinc: Path | None, banking: Path | None) -> list[tuple[str, str]]:
    """(text, source) of every query in the public sets given, minus the phrasings' own."""
    queries: list[tuple[str, str]] = []
    if clinc is not None:
        splits = json.loads(clinc.read_text(encoding="utf-8"))
        for split in ("train", "val", "oos_train", "oos_val"):
            queries += [(text, f"clinc150 {split} {intent}") for text, intent in splits[split]]
    if banking is not None:
        with banking.open(encoding="utf-8") as rows:
            queries += [(r["text"], f"banking77 {r['category']}") for r in csv.DictReader(rows)]
    own = {
        json.loads(line)["text"].lower()
        for line in DATA.read_text(encoding="utf-8").splitlines()
        if line
    }
    return [(text, source) for text, source in queries if text.lower() not in own]


def held_out(queries: list[tuple[str, str]]) -> None:
    hits = [(text, source) for text, source in queries if asks_for_person(text)]
    n, k = len(queries), len(hits)
    # Wilson 95 % interval of the hand-off rate.
    z, p = 1.96, k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(
        f"public queries {n}: handed off {k} ({p:.3%}, 95 % CI {centre - half:.3%}"
        f" to {centre + half:.3%})"
    )
    for text, source in hits:
        print(f"  handed off [{source}]: {text}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="list the misses")
    parser.add_argument("--clinc", type=Path, help="CLINC150 data_full.json")
    parser.add_argument("--banking", type=Path, help="Banking77 train.csv")
    args = parser.parse_args()
    main(args.show)
    if args.clinc or args.banking:
        held_out(public_queries(args.clinc, args.banking))
