"""Checks a reply against a case's assertions, the same way the promptfoo export does."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vigia.eval_cases.schemas import REGEX_FLAGS, CaseAssertions
from vigia.kit.turn_status import TurnStatus


@dataclass(frozen=True)
class CitedDocument:
    id: str
    name: str


@dataclass(frozen=True)
class Observed:
    """What a turn produced, as the assertions see it."""

    reply: str
    status: TurnStatus
    cited: list[CitedDocument] = field(default_factory=list)


def _contains(reply: str, text: str) -> bool:
    # str.lower, like JavaScript's toLowerCase in promptfoo's icontains (not casefold).
    return text.lower() in reply.lower()


def _cites(observed: Observed, document: str) -> bool:
    wanted = document.lower()
    return any(wanted in (d.id.lower(), d.name.lower()) for d in observed.cited)


def failures(assertions: CaseAssertions, observed: Observed) -> list[str]:
    """One readable line per assertion the reply breaks; empty when the case passes."""
    found: list[str] = []
    reply = observed.reply
    for text in assertions.contains:
        if not _contains(reply, text):
            found.append(f"reply does not contain {text!r}")
    for text in assertions.not_contains:
        if _contains(reply, text):
            found.append(f"reply contains {text!r}")
    if assertions.regex is not None and not re.search(assertions.regex, reply, REGEX_FLAGS):
        found.append(f"reply does not match /{assertions.regex}/")
    if assertions.status is not None and observed.status != assertions.status:
        found.append(f"status is {observed.status!r}, expected {assertions.status!r}")
    if assertions.cites and not observed.cited:
        found.append("reply cites no document")
    if assertions.cites_document is not None and not _cites(observed, assertions.cites_document):
        found.append(f"reply does not cite {assertions.cites_document!r}")
    if assertions.max_chars is not None and len(reply) > assertions.max_chars:
        found.append(f"reply has {len(reply)} characters, more than {assertions.max_chars}")
    return found
