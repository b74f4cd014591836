"""Label-changing edits of a supported hypothesis: each returns a sentence the premise no
longer entails, or ``None`` when the edit does not apply.

- ``swap_number``: one number changes (a year by 1-9, another number by a factor or offset);
- ``negate``: the first finite verb of a short list gets the language's negation;
- ``swap_name``: one capitalized name becomes another name of the same document.
"""

from __future__ import annotations

import random
import re

_NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:[.,]\d{3})+|\d+(?:[.,]\d+)?)(?![\w])")
_NEGATABLE = {
    "en": (
        r"\b(is|are|was|were|has|have|had|can|will|would|could|should|did|does|do)\b",
        lambda m: f"{m.group(1)} not",
    ),
    "es": (
        r"\b(es|son|fue|fueron|era|eran|está|están|estaba|tiene|tienen|tenía|puede|pueden|"
        r"hay|ha|han|había|será|serán)\b",
        lambda m: f"no {m.group(1)}",
    ),
    "pt": (
        r"\b(é|são|foi|foram|era|eram|está|estão|estava|estavam|tem|têm|tinha|pode|podem|"
        r"há|havia|será|serão)\b",
        lambda m: f"não {m.group(1)}",
    ),
}
_NAME = re.compile(r"(?<=[a-záéíóúñãõç,;] )([A-ZÁÉÍÓÚÑ][\wáéíóúñãõç]{2,})")


def swap_number(text: str, rng: random.Random) -> str | None:
    """``text`` with one of its numbers changed."""
    found = list(_NUMBER.finditer(text))
    if not found:
        return None
    match = rng.choice(found)
    raw = match.group(1)
    digits = re.sub(r"[.,]", "", raw)
    if not digits.isdigit():
        return None
    value = int(digits)
    if 1000 <= value <= 2100 and len(raw) == 4:
        new = str(value + rng.choice([-1, 1]) * rng.randint(1, 9))
    elif value < 10:
        new = str(rng.choice([v for v in range(2, 13) if v != value]))
    else:
        factor = rng.choice([0.5, 0.8, 1.25, 2.0, 3.0])
        new = str(max(1, round(value * factor)))
        if new == str(value):
            new = str(value + rng.randint(1, 9))
    return text[: match.start(1)] + new + text[match.end(1) :]


def negate(text: str, lang: str) -> str | None:
    """``text`` with its first negatable verb negated, unless it is already negated."""
    if re.search(r"\b(not|no|não|nunca|never|n't)\b", text, re.IGNORECASE):
        return None
    pattern, repl = _NEGATABLE[lang]
    out, n = re.subn(pattern, repl, text, count=1)
    return out if n else None


def swap_name(text: str, names: list[str], rng: random.Random) -> str | None:
    """``text`` with one mid-sentence capitalized name replaced by another of ``names``."""
    found = [m for m in _NAME.finditer(text)]
    if not found or not names:
        return None
    match = rng.choice(found)
    others = [n for n in names if n != match.group(1) and n not in text]
    if not others:
        return None
    return text[: match.start(1)] + rng.choice(others) + text[match.end(1) :]
