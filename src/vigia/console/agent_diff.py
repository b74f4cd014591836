"""What publishing would change: the published and the draft configuration, line by line."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass

from vigia.agents.schemas import AgentConfig


@dataclass(frozen=True)
class DiffLine:
    kind: str
    """``add``, ``remove``, ``hunk`` or ``same``."""
    text: str


def draft_diff(published: AgentConfig | None, draft: AgentConfig) -> list[DiffLine]:
    """What publishing would change: a unified diff of the two configurations as JSON."""

    def lines(config: AgentConfig | None) -> list[str]:
        if config is None:
            return []
        return json.dumps(
            config.model_dump(mode="json"), indent=2, sort_keys=True, ensure_ascii=False
        ).splitlines()

    kinds = {"+": "add", "-": "remove", "@": "hunk"}
    diff = difflib.unified_diff(lines(published), lines(draft), lineterm="", n=2)
    return [
        DiffLine(kinds.get(line[:1], "same"), line)
        for line in diff
        if not line.startswith(("---", "+++"))
    ]
