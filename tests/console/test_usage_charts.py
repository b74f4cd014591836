"""The Uso page's chart geometry and dates: y-axis ticks at round steps that cover the
largest value, whole ticks for counts, a chart of nothing, and dates in es/en."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from vigia.console.charts import BOTTOM, HEIGHT, TOP, Measure, axis_steps, axis_ticks, bar_chart
from vigia.console.dates import long_date, short_date

PLAIN = Measure(show=str, tick=lambda value, digits: f"{value:.{digits}f}")


@pytest.mark.parametrize(
    "largest", [0.0, 0.0034, 0.5, 1.0, 3.0, 7.0, 12.3, 99.0, 100.0, 101.0, 1_234_567.0]
)
def test_ticks_are_round_steps_from_zero_that_cover_the_largest(largest: float) -> None:
    ticks = axis_ticks(largest)
    step, _ = axis_steps(largest)
    mantissa = step.scaleb(-step.adjusted())
    assert mantissa in {Decimal(1), Decimal(2), Decimal(5)}, step
    assert 3 <= len(ticks) <= 5 and ticks[0] == 0
    assert ticks == [float(step * n) for n in range(len(ticks))]  # evenly spaced
    assert ticks[-1] >= largest and (len(ticks) == 3 or ticks[-2] < largest)


def test_ticks_for_known_values() -> None:
    assert axis_ticks(7) == [0, 2, 4, 6, 8]
    assert axis_ticks(0.0034) == [0, 0.001, 0.002, 0.003, 0.004]
    assert axis_ticks(1_234_567) == [0, 500_000, 1_000_000, 1_500_000]


def test_counts_get_whole_ticks() -> None:
    assert axis_ticks(1, whole=True) == [0, 1, 2]
    assert axis_ticks(3, whole=True) == [0, 1, 2, 3]
    assert axis_ticks(0.4, whole=True) == [0, 1, 2]


def test_a_chart_of_nothing_draws_an_axis_and_flat_bars() -> None:
    for points in ([], [("1 dic", 0.0), ("2 dic", 0.0)]):
        chart = bar_chart("usage.cost_per_day", "usage.day", points, PLAIN)
        assert chart.empty and all(bar.height == 0 for bar in chart.bars)
        assert [tick.label for tick in chart.ticks] == ["0.0", "0.5", "1.0"]
        assert chart.total == "0.0" and chart.maximum == "0.0"


def test_bars_reach_the_gridline_of_their_value() -> None:
    chart = bar_chart("usage.tokens_per_day", "usage.day", [("a", 2.0), ("b", 8.0)], PLAIN)
    inner = HEIGHT - TOP - BOTTOM
    assert [tick.label for tick in chart.ticks] == ["0", "2", "4", "6", "8"]
    assert chart.bars[1].height == inner and chart.bars[1].y == chart.ticks[-1].y == TOP
    assert chart.bars[0].y == chart.ticks[1].y and chart.ticks[0].y == chart.baseline
    assert not chart.empty and chart.total == "10.0"


def test_dates_are_written_in_the_pages_language() -> None:
    day = date(2026, 12, 3)
    assert (short_date(day, "es"), short_date(day, "en")) == ("3 dic", "Dec 3")
    assert (long_date(day, "es"), long_date(day, "en")) == ("3 dic 2026", "Dec 3, 2026")
    assert short_date(date(2026, 1, 15), "xx") == "15 ene"  # Spanish by default
