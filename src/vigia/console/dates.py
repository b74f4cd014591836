"""Dates in the page's language: ``3 dic`` / ``Dec 3`` under a chart's bars, ``3 dic 2026``
/ ``Dec 3, 2026`` where the year matters (a range's ends)."""

from __future__ import annotations

from datetime import date

MONTHS = {
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}
"""Short month names per console language."""


def _month(day: date, lang: str) -> str:
    return MONTHS.get(lang, MONTHS["es"])[day.month - 1]


def short_date(day: date, lang: str) -> str:
    """Day and month: ``3 dic`` in Spanish (an unknown language too), ``Dec 3`` in English."""
    if lang == "en":
        return f"{_month(day, lang)} {day.day}"
    return f"{day.day} {_month(day, lang)}"


def long_date(day: date, lang: str) -> str:
    """Day, month and year: ``3 dic 2026``, ``Dec 3, 2026``."""
    if lang == "en":
        return f"{short_date(day, lang)}, {day.year}"
    return f"{short_date(day, lang)} {day.year}"
