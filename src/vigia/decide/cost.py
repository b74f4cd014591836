"""What a decision request costs to read, and the budget that keeps one request in seconds.

The model's time goes into embedding texts one by one (``encoder``): the state and every
distinct candidate text (option, level, the binary ask) through USE and, when a question
is decided by its examples, the state, that question's candidate texts and every distinct
example state through e5 as well (those examples also through USE). Each text costs a
floor plus a price per unit of its *size*: characters, where a character that is not a
Latin letter, a space or common punctuation counts ``DENSE_WEIGHT`` times (digits,
symbols, CJK and emoji are about one token each, Latin prose about one per four or five
characters). Prices are model milliseconds measured by ``bench/decide_cost.py`` on the
shared 2-core machine; the estimate is of the request alone (texts another request already
embedded are not discounted), so the same request is always accepted or always refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from vigia.decide.inference import Plan, learns
from vigia.decide.texts import StateText
from vigia.errors import TooLarge

DENSE_WEIGHT = 4
USE_FLOOR_MS, USE_MS_PER_UNIT = 4.0, 0.03
E5_FLOOR_MS, E5_MS_PER_UNIT = 30.0, 1.0
BUDGET_MS = 8_000
"""The most model time a request may be estimated at (≤ 10 s with the fit and the HTTP)."""

_LIGHT = re.compile(r"[\sA-Za-zÀ-ɏ.,;:¿?¡!'\"()\-]+")


def size(text: str) -> int:
    """Characters, the dense ones (not Latin letters, spaces or punctuation) weighted."""
    light = sum(len(run) for run in _LIGHT.findall(text))
    return light + DENSE_WEIGHT * (len(text) - light)


def _ms(texts: Iterable[str], floor: float, per_unit: float) -> float:
    return sum(floor + per_unit * size(text) for text in set(texts) if text)


def estimate_ms(state: StateText, plans: Sequence[Plan]) -> float:
    """The request's estimated model milliseconds: USE's texts, then e5's if any."""
    learning = [plan for plan in plans if learns(plan)]
    candidates = [text for plan in plans for text in plan.texts]
    examples = [part for plan in learning for s, _ in plan.examples for part in (s.prose, s.facts)]
    parts = [state.prose, state.facts]
    use = _ms([*parts, *candidates, *examples], USE_FLOOR_MS, USE_MS_PER_UNIT)
    if not learning:
        return use
    learned = [text for plan in learning for text in plan.texts]
    return use + _ms([*parts, *learned, *examples], E5_FLOOR_MS, E5_MS_PER_UNIT)


def check_budget(state: StateText, plans: Sequence[Plan]) -> None:
    """Refuses (413, ``too_costly``) a request estimated over ``BUDGET_MS``, before the model
    runs."""
    estimate = estimate_ms(state, plans)
    if estimate > BUDGET_MS:
        raise TooLarge(
            f"this request would take about {estimate / 1000:.1f} s of model time, over the "
            f"{BUDGET_MS / 1000:.0f} s a request may take: split its questions or options "
            "over several requests, or shorten its texts or examples (docs: decide, "
            "'Cost limit')",
            code="too_costly",
        )
