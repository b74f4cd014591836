"""The answer of one guardrail check, with a typed detail per check.

Each detail is a final ``TypedDict`` whose keys tell it apart from the others, so a reader
narrows ``verdict.detail`` with ``"key" in detail`` (``"unsupported"`` is grounding's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Required, TypedDict, final

from vigia.guardrails.config import Sensitivity

Severity = Literal["leve", "grave"]
"""How serious a fired check is: the review holds a ``grave`` reply on its second attempt."""


class Position(TypedDict, total=False):
    """Where in a request an input check fired (``verdict_cache.check_messages`` adds it)."""

    message: int
    """The position of the first failing message in the request's messages."""
    messages_failed: int


@final
class LengthDetail(Position):
    chars: int
    max: int


@final
class InjectionDetail(Position, total=False):
    """``score`` and ``sensitivity`` are absent where the check does not report them (the
    structured reply's strings; ``sensitivity`` on tool results)."""

    score: float
    sensitivity: Sensitivity
    families: Required[list[str]]


@final
class TopicsDetail(Position):
    topics: list[str]


@final
class PersonalDataDetail(TypedDict):
    kinds: list[str]
    sentences: list[str]


@final
class GroundingDetail(TypedDict):
    unsupported: list[str]
    uncertain: list[str]
    reasons: list[str]
    judge: Literal["embedded", "llm"]


@final
class NoDetail(TypedDict):
    """A check that did not run on anything (a passed verdict with nothing to say)."""


Detail = (
    LengthDetail | InjectionDetail | TopicsDetail | PersonalDataDetail | GroundingDetail | NoDetail
)


@dataclass(frozen=True)
class Verdict:
    """``passed`` False means the check fired; ``blocking`` says whether it stops the turn."""

    name: str
    passed: bool = True
    blocking: bool = False
    severity: Severity = "leve"
    reason: str = ""
    detail: Detail = field(default_factory=NoDetail)


def placed(detail: Detail, position: Position) -> Detail:
    """``detail`` of an input check with where in the request it fired."""
    if "chars" in detail:
        length: LengthDetail = {**detail, **position}
        return length
    if "families" in detail:
        injection: InjectionDetail = {**detail, **position}
        return injection
    if "topics" in detail:
        topics: TopicsDetail = {**detail, **position}
        return topics
    return detail
