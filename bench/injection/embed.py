"""Embeds, once, every text the injection detector reads of the shared prompts and stores it.

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.embed --encoder e5 [--part 0/2]

Texts: for ``train``, ``dev``, ``xstest_unsafe``, the team's prompts (both files) and the
customer-like benign prompts of ``benign.py`` (fitted and held out), what
each view of the detector embeds (``use``: clipped whole and 250-character segments; ``e5``:
the shorter clipped whole of ``vigia.guardrails.injection_cascade.e5_texts`` and the same
segments) and the benign fragments of ``fitting.py``. Sorted by length so a batch pads
little. ``--part k/n`` embeds every n-th text not yet stored into
``bench/.out/injection-{encoder}-k.npz`` (parallel runs); ``StoredVectors`` reads the parts
together.
"""

from __future__ import annotations

import argparse

from bench.injection.benign import read_benign
from bench.injection.data import OUT, StoredVectors, read_split, read_team_train, read_unsafe
from bench.injection.figures import read_team_set
from bench.injection.fitting import fragment

from vigia.guardrails.injection import embedding_texts
from vigia.guardrails.injection_cascade import e5_texts


def all_texts(encoder: str) -> list[str]:
    """Every distinct text ``encoder``'s view embeds for the shared and team prompts."""
    prompts = read_split("train") + read_split("dev") + read_team_train() + read_unsafe()
    prompts += read_team_set()
    fit, held = read_benign()
    prompts += fit + held
    view = e5_texts if encoder == "e5" else embedding_texts
    texts = [t for p in prompts for t in view(p.text)]
    texts += [f for p in prompts if p.label == 0 and (f := fragment(p.text))]
    return sorted(dict.fromkeys(texts), key=len)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoder", choices=["use", "e5"], default="e5")
    parser.add_argument("--part", default="0/1", help="k/n: every n-th text from the k-th")
    args = parser.parse_args()
    k, n = (int(x) for x in args.part.split("/"))
    path = OUT / f"injection-{args.encoder}-{k}.npz" if n > 1 else None
    todo = StoredVectors(encoder=args.encoder).missing(all_texts(args.encoder))
    StoredVectors(path, encoder=args.encoder)(todo[k::n])


if __name__ == "__main__":
    main()
