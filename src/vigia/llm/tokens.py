"""Deterministic token estimate for providers that do not report usage (no downloads)."""

from __future__ import annotations

import re

from vigia.llm.protocol import ModelRequest

_PIECE = re.compile(r"\w{1,4}|[^\w\s]", re.UNICODE)


def count_tokens(text: str) -> int:
    """Approximates BPE tokens: words split into pieces of at most four characters."""
    return len(_PIECE.findall(text))


def prompt_tokens(request: ModelRequest) -> int:
    """Tokens the request would take as a chat prompt (instructions, memory, passages, tools)."""
    dialogue = [*request.history, *request.continuation]
    parts = [request.instructions, request.message]
    parts += [m.content for m in dialogue]
    parts += [c.name + c.arguments for m in dialogue for c in m.tool_calls]
    parts += [p.text for p in request.passages]
    parts += [t.name + t.description + str(t.parameters) for t in request.tools]
    return sum(count_tokens(p) for p in parts) + 4 * (len(dialogue) + 2)
