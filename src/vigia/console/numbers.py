"""Numbers with the separators of the page's language: ``1.234,5`` in Spanish, ``1,234.5`` in
English (the ``number`` filter of the templates, and every number a message names)."""

from __future__ import annotations

SEPARATORS = {"es": (".", ","), "en": (",", ".")}
"""Thousands and decimal separator per console language."""


def format_number(value: float, lang: str, digits: int | None = None) -> str:
    """``value`` with ``digits`` decimals (None: as many as it has, up to 6) and the
    separators of ``lang`` (Spanish ones for an unknown language)."""
    if isinstance(value, int) and digits is None:
        written = f"{value:,}"
    elif digits is None:
        written = f"{value:,.6f}".rstrip("0").rstrip(".")
    else:
        written = f"{value:,.{digits}f}"
    thousands, decimal = SEPARATORS.get(lang, SEPARATORS["es"])
    return written.translate(str.maketrans(",.", thousands + decimal))
