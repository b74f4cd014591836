"""Cost of a run from the per-model price table (USD per million tokens)."""

from __future__ import annotations

from vigia.config import get_settings


def cost_usd(model: str, prompt_tokens: int, completion_tokens: int) -> float:
    """What the tokens cost; models missing from the table cost nothing."""
    price = get_settings().prices.get(model)
    if price is None:
        return 0.0
    return round((prompt_tokens * price.input + completion_tokens * price.output) / 1_000_000, 8)
