"""The injection detector's second stage: a head that also reads e5, for uncertain messages.

A message whose first-stage score (USE + patterns) falls inside the second stage's band is
scored again by a head over its USE rows and its e5 rows (multilingual-e5-small, "query: "
side); that score replaces the first. e5 costs ~20–80 ms per text on one core against
~2 ms for USE, so only the messages near the thresholds pay it; the rest keep the first
score (above the band: blocked at every sensitivity; below it: passes at `low` and
`medium`, and at `high` only under that threshold, which may sit just below the band:
docs/guardrails.md). Rows
are aligned with the first stage's: the clipped whole (e5 reads a shorter one,
``E5_CLIP_CHARS`` each side), then the same segments.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vigia.guardrails.injection_text import (
    CLIP_CHARS,
    PATTERN_NAMES,
    SEGMENT_CHARS,
    clipped,
    segments,
)

E5_CLIP_CHARS = 250
USE_DIM = 512
E5_DIM = 384
VIEWS = {"use": USE_DIM, "patterns": len(PATTERN_NAMES), "e5": E5_DIM}


def e5_texts(text: str, size: int = SEGMENT_CHARS) -> list[str]:
    """What e5 embeds for ``text``: a shorter clipped whole (e5 reads long texts slowly:
    ~0.7 s for 2,000 characters on one core), then the same segments as USE."""
    parts = segments(text, size)
    return [clipped(text, E5_CLIP_CHARS), *(parts if len(parts) > 1 else [])]


def view_rows(
    first_rows: NDArray[np.float32], e5_vectors: NDArray[np.float32]
) -> dict[str, NDArray[np.float32]]:
    """Every view's rows of a message: its first-stage rows (USE vector, then patterns) and
    the e5 rows of the same positions (``e5_texts``)."""
    return {
        "use": first_rows[:, :USE_DIM],
        "patterns": first_rows[:, USE_DIM:],
        "e5": e5_vectors,
    }


@dataclass(frozen=True)
class SecondStage:
    """``logit = row @ weights + bias`` over the views of ``scales`` (each view times its
    scale, in ``VIEWS`` order), read for first scores in ``[band[0], band[1])``."""

    band: tuple[float, float]
    scales: dict[str, float]
    weights: NDArray[np.float64]
    bias: float

    @classmethod
    def from_json(cls, data: dict[str, object]) -> SecondStage:
        scales = data["scales"]
        band = data["band"]
        assert isinstance(scales, dict) and isinstance(band, list)
        if unknown := set(scales) - set(VIEWS):
            raise ValueError(f"second stage reads views this version lacks: {sorted(unknown)}")
        weights = np.asarray(data["weights"], dtype=np.float64)
        width = sum(VIEWS[name] for name in VIEWS if scales.get(name))
        if weights.shape != (width,):
            raise ValueError(f"second stage has {weights.shape} weights, expected {width}")
        return cls(
            band=(float(band[0]), float(band[1])),
            scales={name: float(scales[name]) for name in VIEWS if scales.get(name)},
            weights=weights,
            bias=float(str(data["bias"])),
        )

    def reads(self, first_score: float) -> bool:
        """Whether a message with this first-stage score is scored again."""
        return self.band[0] <= first_score < self.band[1]

    def rows(self, views: dict[str, NDArray[np.float32]]) -> NDArray[np.float64]:
        """The stage's rows from every view's rows (``view_rows``)."""
        parts = [views[name].astype(np.float64) * scale for name, scale in self.scales.items()]
        return np.hstack(parts)

    def score_rows(self, rows: NDArray[np.float64]) -> float:
        """The score of one message from its rows (the highest row decides)."""
        logit = float((rows @ self.weights).max()) + self.bias
        return float(1.0 / (1.0 + np.exp(-logit)))


assert CLIP_CHARS >= E5_CLIP_CHARS
