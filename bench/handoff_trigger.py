"""Accuracy of the customer-triggered handoff rule on bench/data/handoff/phrasings.jsonl.

Prints accuracy, missed requests and false handoffs (look-alikes it would hand off), by
language. Run: ``.venv/bin/python bench/handoff_trigger.py [--show]``.
"""

from __future__ import annotations

import json
import sys
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


if __name__ == "__main__":
    main("--show" in sys.argv)
