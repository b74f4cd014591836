"""The answer of one guardrail check."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Verdict:
    """``passed`` False means the check fired; ``blocking`` says whether it stops the turn."""

    name: str
    passed: bool = True
    blocking: bool = False
    severity: str = "leve"
    reason: str = ""
    detail: dict[str, Any] = field(default_factory=dict)
