"""Bar charts drawn as inline SVG on the server: no chart library, nothing for the CSP to
allow. ``bar_chart`` computes the geometry; ``charts.html`` draws it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 200
TOP, BOTTOM, LEFT = 16, 28, 8


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: str


@dataclass(frozen=True)
class BarChart:
    title: str
    bars: list[Bar]
    maximum: str
    ticks: list[Bar]
    """The bars whose labels are written under the axis (every few, so they do not overlap)."""
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def baseline(self) -> int:
        return self.height - BOTTOM


def bar_chart(
    title: str,
    points: Sequence[tuple[str, float]],
    show: Callable[[float], str],
    max_labels: int = 8,
) -> BarChart:
    """Bars for ``(label, value)`` points, scaled to the largest value."""
    largest = max((value for _, value in points), default=0.0)
    inner = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT) / max(len(points), 1)
    bars = []
    for i, (label, value) in enumerate(points):
        height = inner * value / largest if largest > 0 else 0.0
        bars.append(
            Bar(
                x=round(LEFT + i * slot + slot * 0.1, 2),
                y=round(TOP + inner - height, 2),
                width=round(slot * 0.8, 2),
                height=round(height, 2),
                label=label,
                value=show(value),
            )
        )
    every = max(1, -(-len(bars) // max_labels))
    return BarChart(title, bars, show(largest), bars[::every])
