"""Out-of-fold figures of a two-stage detector: a cheap head first, a costlier one in a band.

    OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.cascade FIRST SECOND [--latency]

Reads the out-of-fold scores that ``bench.injection.cv`` stored for the two recipes
(``bench/.out/cv-{recipe}.npy``). A prompt whose first score falls in ``[low, high)`` gets
the second head's score; any other keeps the first (below ``low``: passes at every
sensitivity; at or above ``high``: blocked at every one). For each band: the share of prompts
the second head reads, then the cross-validation summary at 3 % pooled FPR. ``--latency``:
also the share of the latency part's new messages in the band and the CPU p50 of checking
them (each message timed with the shipped first stage alone and with the second stage on
it; a message in the band costs the latter).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence

import numpy as np
from bench.injection.cv import summary
from bench.injection.data import OUT, Prompt, StoredVectors, read_split
from bench.injection.fitting import Embed, rows_of, score_all
from bench.injection.views import OFFSETS, Views
from numpy.typing import NDArray

from vigia.guardrails.injection import InjectionHead
from vigia.guardrails.injection_cascade import SecondStage

LOWS = (0.02, 0.05, 0.1, 0.2, 0.3, 0.4)
HIGHS = (0.8, 0.85, 0.9, 0.95, 0.98, 0.99)


def cascaded(
    first: NDArray[np.float64], second: NDArray[np.float64], low: float, high: float
) -> NDArray[np.float64]:
    """The second score inside the first's band ``[low, high)``, the first outside it."""
    band = (first >= low) & (first < high)
    return np.where(band, second, first)


def message_costs() -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """On dev's prompts 20–219 in file order (the latency part's messages when the band was
    chosen; ``latency.py`` now spreads its messages over dev), with the shipped head: each
    one's first-stage score, and the CPU milliseconds of ``detect_injection`` with the first
    stage only and with the second stage on it (every cache cleared before each run)."""
    import time

    from bench.injection.latency import HISTORY, REQUESTS, _cold

    from vigia.guardrails import injection

    injection.warm_up()
    head = injection.get_head()
    prompts = read_split("dev")[HISTORY : HISTORY + REQUESTS]
    first = score_all(head, rows_of(prompts, StoredVectors()))
    texts = [p.text for p in prompts]

    def timed(second: SecondStage | None) -> NDArray[np.float64]:
        object.__setattr__(head, "second", second)
        _cold()
        out = []
        for text in texts:
            started = time.process_time()
            injection.detect_injection(text)
            out.append((time.process_time() - started) * 1000)
        return np.array(out)

    shipped = head.second
    forced = None if shipped is None else dataclasses.replace(shipped, band=(0.0, 1.01))
    try:
        return first, timed(None), timed(forced)
    finally:
        object.__setattr__(head, "second", shipped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--latency", action="store_true", help="time the latency set too")
    args = parser.parse_args()
    train = read_split("train")
    first = np.load(OUT / f"cv-{args.first}.npy")
    second = np.load(OUT / f"cv-{args.second}.npy")
    print(summary(args.first, train, first))
    print(summary(args.second, train, second))
    costs = message_costs() if args.latency else None
    for low in LOWS:
        for high in HIGHS:
            band = float(((first >= low) & (first < high)).mean())
            name = f"band [{low}, {high}) reads {band:.3f}"
            if costs is not None:
                read = (costs[0] >= low) & (costs[0] < high)
                cpu = np.median(np.where(read, costs[2], costs[1]))
                name += f", latency set {read.mean():.2f}, CPU p50 {cpu:.1f} ms"
            print(summary(name, train, cascaded(first, second, low, high)), flush=True)


if __name__ == "__main__":
    main()


def product_scores(
    head: InjectionHead, prompts: Sequence[Prompt], embed: Embed, views: Views | None = None
) -> NDArray[np.float64]:
    """Each prompt's score as the product computes it (``injection.scores``): the first
    stage, then the second stage's score for those in its band (stored vectors)."""
    first_rows = rows_of(prompts, embed)
    out = score_all(head, first_rows)
    second = head.second
    if second is None:
        return out
    views = views or Views()
    for i in np.flatnonzero([second.reads(float(s)) for s in out]):
        full = np.hstack([first_rows[i], views.columns(prompts[int(i)].text)])
        parts = {name: full[:, start:end] for name, (start, end) in OFFSETS.items()}
        out[i] = second.score_rows(second.rows(parts))
    return out
