"""Injection, BIPIA: does an off-topic segment tell an injected document from a clean one?

An instruction inserted into an e-mail, a table or an abstract is usually about something
else than the document around it. For each BIPIA document of ``train.jsonl`` with three or
more segments (``injection_text.segments``), each segment's USE cosine to the mean of the
other segments is taken; the document's figure is the lowest. Nothing is fitted, so the
AUC of that figure (lower = more likely injected) is an honest reading on train; dev is
not read.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.coherence``.
"""

from __future__ import annotations

import argparse

import numpy as np
from bench.injection.data import read_split
from bench.injection.fitting import cosines_to_rest
from bench.injection.report import roc_auc

from vigia.embeddings import TEXT_VECTORS, get_embedder
from vigia.guardrails.injection_text import segments, squeezed


def lowest_coherence(parts: list[str]) -> float:
    """The lowest cosine of a segment to the mean of the others."""
    vectors = np.asarray(TEXT_VECTORS.queries(get_embedder("use"), parts))
    return float(np.min(cosines_to_rest(vectors)))


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    documents = [p for p in read_split("train") if p.source == "bipia"]
    read = [(p.label, segments(squeezed(p.text))) for p in documents]
    kept = [(label, lowest_coherence(parts)) for label, parts in read if len(parts) >= 3]
    injected = np.array([-c for label, c in kept if label == 1])
    clean = np.array([-c for label, c in kept if label == 0])
    print(f"BIPIA train documents: {len(documents)}, with ≥ 3 segments: {len(kept)}")
    print(f"  injected {len(injected)}, clean {len(clean)}")
    print(f"AUC of the lowest coherence: {roc_auc(injected, clean):.3f}")


if __name__ == "__main__":
    main()
