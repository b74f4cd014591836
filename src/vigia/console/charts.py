"""Bar charts drawn as inline SVG on the server: no chart library, nothing for the CSP to
allow. ``bar_chart`` computes the geometry (bars scaled to a y-axis of round ticks, with
gridlines); ``charts.html`` draws it."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal

WIDTH, HEIGHT = 640, 220
TOP, BOTTOM, LEFT, RIGHT = 12, 30, 100, 8
"""The plot's margins: the y-axis labels sit left of ``LEFT``, the x labels under it."""
STEPS = (1, 2, 5)
"""Round steps between ticks: 1, 2 or 5 × 10^k."""
MOST_STEPS = 4
"""At most four steps above 0 (five ticks), at least two (three ticks)."""
WIDEST_BAR = 64
"""A bar of few points is no wider than this, centred in its slot."""


@dataclass(frozen=True)
class Measure:
    """How one quantity reads: a bar's value, an axis tick with ``digits`` decimals, and
    whether it counts whole things (then no tick falls between two whole numbers)."""

    show: Callable[[float], str]
    tick: Callable[[float, int], str]
    whole: bool = False


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    value: str


@dataclass(frozen=True)
class Tick:
    """A y-axis tick: its gridline's height and its label."""

    y: float
    label: str


@dataclass(frozen=True)
class BarChart:
    title: str
    """The catalogue key of the chart's title."""
    category: str
    """The catalogue key naming what a bar stands for (a day, an agent)."""
    bars: list[Bar]
    ticks: list[Tick]
    labelled: list[Bar]
    """The bars whose labels are written under the axis (every few, so they do not overlap)."""
    maximum: str
    total: str
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT

    @property
    def baseline(self) -> int:
        return self.height - BOTTOM

    @property
    def empty(self) -> bool:
        """No bar rises above the axis (no points, or every value 0)."""
        return all(bar.height == 0 for bar in self.bars)


def axis_steps(largest: float, whole: bool = False) -> tuple[Decimal, int]:
    """The step between ticks and how many steps the axis has (2 to 4): the smallest round
    step (whole for whole things) that reaches ``largest`` in at most four; an axis for
    nothing (``largest`` 0) reaches 1."""
    top = Decimal(largest) if largest > 0 else Decimal(1)
    exponent = math.floor(math.log10(top / MOST_STEPS)) - 1
    while True:
        for factor in STEPS:
            step = Decimal(factor).scaleb(exponent)
            count = math.ceil(top / step)
            if count <= MOST_STEPS and (step >= 1 or not whole):
                return step, max(2, count)
        exponent += 1


def axis_ticks(largest: float, whole: bool = False) -> list[float]:
    """The tick values of the y-axis, from 0 up to the first at or above ``largest``."""
    step, count = axis_steps(largest, whole)
    return [float(step * n) for n in range(count + 1)]


def bar_chart(
    title: str,
    category: str,
    points: Sequence[tuple[str, float]],
    measure: Measure,
    max_labels: int = 8,
) -> BarChart:
    """Bars for ``(label, value)`` points on an axis of round ticks that covers the largest."""
    largest = max((value for _, value in points), default=0.0)
    step, count = axis_steps(largest, measure.whole)
    top = float(step * count)
    digits = max(0, -int(step.normalize().as_tuple().exponent))
    inner = HEIGHT - TOP - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / max(len(points), 1)
    width = min(slot * 0.8, WIDEST_BAR)
    bars = []
    for i, (label, value) in enumerate(points):
        height = inner * value / top
        bars.append(
            Bar(
                x=round(LEFT + i * slot + (slot - width) / 2, 2),
                y=round(TOP + inner - height, 2),
                width=round(width, 2),
                height=round(height, 2),
                label=label,
                value=measure.show(value),
            )
        )
    ticks = [
        Tick(round(TOP + inner - inner * n / count, 2), measure.tick(float(step * n), digits))
        for n in range(count + 1)
    ]
    every = max(1, -(-len(bars) // max_labels))
    total = measure.show(sum((value for _, value in points), 0.0))
    return BarChart(title, category, bars, ticks, bars[::every], measure.show(largest), total)
