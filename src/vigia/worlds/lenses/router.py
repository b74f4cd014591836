"""Chooses the lens for a question and says why."""

from __future__ import annotations

import re
from dataclasses import dataclass

IMPACT = [
    (r"\bimpact", "it asks about impact"),
    (r"\bwhat (?:changes|breaks|happens|is affected)\b.*\bif\b", "it asks what changes if"),
    (
        r"\bif (?:we|i|you|someone) (?:change|modify|remove|rename|alter|resize|delete)",
        "it describes a change",
    ),
    (
        r"\b(?:who|what|which(?: \w+)?) (?:calls?|uses?|performs?|reads?|copies|copy|runs?|"
        r"references?|depends? on|writes?)\b",
        "it asks what depends on something",
    ),
    (
        r"\b(?:callers?|used by|depends? on|affected|ripple|blast radius|where is .+ used)\b",
        "it asks for dependants",
    ),
]
TROUBLESHOOT = [
    (
        r"\b(?:wrong|incorrect\w*|bad|fails?|failing|failed|error|abends?|abended|crash\w*|bug|broken|"
        r"not working|too (?:high|low|much)|negative|missing|mismatch|symptom|s0c\d|sqlcode|"
        r"is zero|are zero|returns zero|off by|doesn't|does not|never|instead of)\b",
        "it describes a symptom",
    ),
    (r"\bwhy (?:is|does|do|did|are)\b", "it asks why something happens"),
]


@dataclass(frozen=True)
class Route:
    """The chosen lens and a human reason."""

    lens: str
    reason: str


def choose_lens(message: str) -> Route:
    """``impact`` for change and dependency questions, ``troubleshoot`` for symptoms,
    ``qa`` otherwise."""
    text = message.lower()
    # Names such as TX-BAD-STATE or ERR-CODE say nothing about the kind of question.
    plain = re.sub(r"\b[\w]+(?:-[\w]+)+\b", " ", text)
    for pattern, why in IMPACT:
        match = re.search(pattern, text)
        if match:
            return Route("impact", f"impact: {why} (matched “{match.group(0)}”)")
    for pattern, why in TROUBLESHOOT:
        match = re.search(pattern, plain)
        if match:
            return Route("troubleshoot", f"troubleshoot: {why} (matched “{match.group(0)}”)")
    return Route("qa", "qa: a question about facts, no change or symptom was described")
