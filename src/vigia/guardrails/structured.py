"""The output checks on a structured reply (``response_format`` ``json_object`` or
``json_schema``): the JSON is checked whole, on its values, and is never rewritten.

- personal data, blocked topics and injection (a reply that echoes instructions aimed at
  whatever program reads the JSON next) are read on its string values;
- grounding judges the claims of those strings against the evidence of prose replies plus
  the contact's own message (an extraction restates what the contact wrote); each number
  value must be a figure found there, and so must each name of a value too short to be a
  claim (``"city": "Rosario"``).

Keys are the client's schema, not claims, so they are not read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from vigia.guardrails.checks import (
    GuardedAgent,
    OutputContext,
    check_grounding,
    check_reply,
    tool_result_pieces,
    verdict,
)
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.grounding import SupportIndex, is_claim, numbers_in
from vigia.guardrails.injection import detect_injection
from vigia.guardrails.verdict import GroundingDetail, Verdict
from vigia.language import STOPWORDS, fold, sentences, stem
from vigia.llm.settings import ModelSettings

_NAME = re.compile(r"[A-ZÁÉÍÓÚÂÊÔÃÕÇÑ][^\W\d_]+")


def _leaves(value: Any) -> tuple[list[str], list[str]]:
    """The string values and the number values (as text) of decoded JSON, in order."""
    if isinstance(value, str):
        return [value], []
    if isinstance(value, bool) or value is None:
        return [], []
    if isinstance(value, int | float):
        return [], [str(value)]
    items = value.values() if isinstance(value, dict) else value
    strings: list[str] = []
    numbers: list[str] = []
    for item in items:
        more, figures = _leaves(item)
        strings += more
        numbers += figures
    return strings, numbers


def decode(text: str) -> Any | None:
    """The reply's JSON object or array, or None when the reply is not JSON."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


def structured_context(context: OutputContext) -> OutputContext:
    """The evidence of a structured reply: the prose evidence plus the contact's message."""
    return replace(context, sources=(*context.sources, context.message))


def check_structured(value: Any, config: GuardedAgent, context: OutputContext) -> list[Verdict]:
    """The output checks on decoded JSON ``value`` (``context`` from ``structured_context``)."""
    guard = config.guardrails
    strings, numbers = _leaves(value)
    parts = [s for text in strings if text.strip() for s in (sentences(text) or [text])]
    checked = guard.model_copy(update={"grounding": "off"})
    verdicts = check_reply(parts, _Agent(checked, config.model), context) if parts else []
    if guard.injection != "off" and strings:
        verdicts.append(_injection(strings, guard))
    if guard.grounding != "off":
        verdicts.append(_grounding(parts, numbers, config, context))
    return verdicts


@dataclass(frozen=True)
class _Agent:
    """An agent's configuration with other guardrails (grounding is checked apart here)."""

    guardrails: GuardrailsConfig
    model: ModelSettings


def _unknown_names(parts: list[str], index: SupportIndex) -> list[str]:
    """Capitalised words of the short values (too short to be claims: ``"Rosario"``) that
    the evidence does not contain: a name the reply made up."""
    names = [
        word
        for part in parts
        if not is_claim(part, index)
        for word in _NAME.findall(part)
        if fold(word) not in STOPWORDS
    ]
    known = index.vocabulary
    return list(dict.fromkeys(n for n in names if not {fold(n), stem(fold(n))} & known))


def _injection(strings: list[str], guard: GuardrailsConfig) -> Verdict:
    pieces = tool_result_pieces(json.dumps(strings, ensure_ascii=False))
    fired = [f for f in map(detect_injection, pieces) if f.fired(guard.injection_sensitivity)]
    return verdict(
        "injection",
        guard.injection,
        bool(fired),
        "grave",
        "the structured reply carries instructions aimed at an assistant",
        {"families": sorted({name for f in fired for name in f.families})},
    )


def _grounding(
    parts: list[str], numbers: list[str], config: GuardedAgent, context: OutputContext
) -> Verdict:
    """Grounding of the string claims, with the number values' figures checked too."""
    index = context.index()
    found = check_grounding(parts, config, context, index) if parts else None
    missing = sorted({n for figure in numbers for n in numbers_in(figure)} - index.numbers)
    missing += _unknown_names(parts, index)
    if not missing:
        return found or Verdict(name="grounding")
    reason = f"values not in the evidence: {', '.join(missing)}"
    if found is not None and not found.passed and "unsupported" in found.detail:
        detail: GroundingDetail = {
            **found.detail,
            "unsupported": [*found.detail["unsupported"], *missing],
            "reasons": [*found.detail["reasons"], reason],
        }
        return replace(found, severity="grave", detail=detail)
    return verdict(
        "grounding",
        config.guardrails.grounding,
        True,
        "grave",
        "the structured reply states something that is not in its evidence",
        {"unsupported": missing, "uncertain": [], "reasons": [reason], "judge": "embedded"},
    )
