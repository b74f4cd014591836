"""Reciprocal-rank fusion."""

from __future__ import annotations

import pytest

from vigia.search.fusion import reciprocal_rank_fusion


def test_fusion_sums_reciprocal_ranks_over_lists() -> None:
    fused = reciprocal_rank_fusion([["a", "b"], ["b", "c"]], k=60)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert fused["a"] == pytest.approx(1 / 61)
    assert max(fused, key=fused.__getitem__) == "b"
