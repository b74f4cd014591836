"""The injection classifier's validation split and thresholds rule (no torch, no data folder)."""

from __future__ import annotations

import numpy as np
from training.injection.data import VALIDATION_SHARE, Row, split
from training.injection.thresholds import FPR_TARGETS, thresholds_for


def _rows() -> list[Row]:
    rows = []
    for source, groups in (("big", 200), ("small", 7)):
        for g in range(groups):
            for copy in range(3):  # a group holds several texts (translations, near-duplicates)
                rows.append(Row(f"{source} {g} {copy}", g % 2, "en", source, f"{source}:{g}"))
    return rows


def test_validation_takes_whole_groups_from_every_source() -> None:
    fit, validation = split(_rows())
    assert {r.group for r in fit}.isdisjoint({r.group for r in validation})
    assert {r.source for r in validation} == {"big", "small"}
    share = len({r.group for r in validation if r.source == "big"}) / 200
    assert abs(share - VALIDATION_SHARE) < 0.01
    assert split(_rows()) == (fit, validation)  # seeded


def test_each_threshold_is_the_lowest_within_its_fpr_averaged_over_sources() -> None:
    rng = np.random.default_rng(0)
    scores = np.concatenate([rng.random(400) * 0.5, rng.random(100) * 0.5, 0.6 + rng.random(50)])
    scores[:8] = 0.95  # eight false alarms, all in source a: 2 % there, 1 % averaged
    labels = np.array([0] * 500 + [1] * 50)
    sources = np.array(["a"] * 400 + ["b"] * 100 + ["c"] * 50)
    cuts = thresholds_for(labels, scores, sources)
    assert cuts["low"] >= cuts["medium"] >= cuts["high"]
    benign = labels == 0
    for name, cut in cuts.items():
        fpr = np.mean([(scores[benign & (sources == s)] >= cut).mean() for s in ("a", "b")])
        assert fpr <= FPR_TARGETS[name]
        lower = scores[benign & (scores < cut)].max()  # one more benign text would fire
        more = np.mean([(scores[benign & (sources == s)] >= lower).mean() for s in ("a", "b")])
        assert more > FPR_TARGETS[name]
