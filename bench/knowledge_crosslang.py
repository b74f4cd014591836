"""Knowledge answers across languages: the same SQuAD-es questions asked in es, en and pt over
the Spanish knowledge base, with 95 % intervals.

Measurement only. ``bench/data/knowledge_crosslang/squad_es_100.jsonl`` holds 100 questions
drawn from SQuAD-es dev (``random.Random(29).sample`` over its questions in file order), each
with the team's English and Portuguese translation of the Spanish question and the gold
answers (Spanish spans of the Spanish contexts). One knowledge base holds every SQuAD-es dev
article (as ``bench/knowledge_public.py`` builds it); each question is asked in each
language, and the embedded answerer's reply is checked as there: a gold answer in one of the
passages read, in a cited snippet, in the reply, and the no-answer reply. Prints per
language the rates with Wilson 95 % intervals and, against Spanish, the paired difference
(questions answered in es but not in the other language, and the reverse).

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/knowledge_crosslang.py [--data-dir DIR]``
(``DIR`` keeps the ingested base between runs; SQuAD-es dev is read from the shared data
folder beside the repository, as ``bench/knowledge_public.py`` reads it).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ITEMS = ROOT / "bench" / "data" / "knowledge_crosslang" / "squad_es_100.jsonl"
LANGS = ("es", "en", "pt")
KB_NAME = "squad_es"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", help="keeps the ingested knowledge base between runs")
    parser.add_argument("--top-k", type=int, default=5)
    args = parser.parse_args()
    reuse = bool(args.data_dir) and Path(args.data_dir, "vigia.db").exists()
    os.environ["VIGIA_DATA_DIR"] = args.data_dir or tempfile.mkdtemp(prefix="vigia-kx-")
    sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
    from bench.injection_public import wilson

    from knowledge_public import answer, has, ingest, load
    from vigia.agents.schemas import Replies
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.knowledge import service
    from vigia.workspaces.service import create_workspace, find_workspace

    upgrade()
    items = [json.loads(line) for line in ITEMS.read_text(encoding="utf-8").splitlines()]
    no_answer = Replies().no_answer
    with session_scope() as session:
        if reuse:
            workspace = find_workspace(session, "eval")
            kb = next(
                k for k in service.list_knowledge_bases(session, workspace) if k.name == KB_NAME
            )
        else:
            kb = ingest(
                session, create_workspace(session, "eval"), KB_NAME, load(KB_NAME)[0], "use"
            )
    results: dict[str, list[dict[str, bool]]] = {lang: [] for lang in LANGS}
    with session_scope() as session:
        for item in items:
            for lang in LANGS:
                passages, text, cited = answer(session, kb, item[lang], args.top_k, no_answer)
                results[lang].append(
                    {
                        "passage": any(has(p.text, item["answers"]) for p in passages),
                        "snippet": any(has(c.snippet, item["answers"]) for c in cited),
                        "reply": has(text, item["answers"]),
                        "no_answer": text == no_answer,
                    }
                )
    figures: dict[str, Any] = {"questions": len(items)}
    print(
        "| language | answer in a passage read | answer in a cited snippet | answer in the reply "
        "| no-answer reply |"
    )
    print("|---|---|---|---|---|")
    for lang in LANGS:
        row = []
        for measure in ("passage", "snippet", "reply", "no_answer"):
            hits = sum(r[measure] for r in results[lang])
            low, high = wilson(hits, len(items))
            figures[f"{lang} {measure}"] = {"rate": hits / len(items), "ci95": [low, high]}
            row.append(f"{hits / len(items):.2f} [{low:.2f}, {high:.2f}]")
        print(f"| {lang} | " + " | ".join(row) + " |")
    print("\n| against es | measure | es only | other only | difference |")
    print("|---|---|---|---|---|")
    for lang in LANGS[1:]:
        pairs = list(zip(results["es"], results[lang], strict=True))
        for measure in ("passage", "snippet", "reply"):
            es_only = sum(a[measure] and not b[measure] for a, b in pairs)
            other_only = sum(b[measure] and not a[measure] for a, b in pairs)
            difference = (other_only - es_only) / len(items)
            figures[f"{lang} - es {measure}"] = difference
            print(f"| {lang} | {measure} | {es_only} | {other_only} | {difference:+.2f} |")
    out = ROOT / "bench" / ".out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "knowledge-crosslang.json").write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
