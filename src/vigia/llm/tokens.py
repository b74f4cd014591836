"""Deterministic token estimate for providers that do not report usage (no downloads)."""

from __future__ import annotations

import re

_PIECE = re.compile(r"\w{1,4}|[^\w\s]", re.UNICODE)


def count_tokens(text: str) -> int:
    """Approximates BPE tokens: words split into pieces of at most four characters."""
    return len(_PIECE.findall(text))
