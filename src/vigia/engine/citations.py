"""Maps the model's ``[n]`` markers to passages and renumbers them in order of first use."""

from __future__ import annotations

import re
from collections.abc import Callable

from vigia.engine.events import Citation
from vigia.llm.protocol import Passage

MARKER = re.compile(r"\[(\d{1,3})\]")
SNIPPET_CHARS = 400


class CitationMap:
    """Rewrites markers sentence by sentence; unknown markers are removed.

    ``redact`` is applied to each cited passage before its snippet is cut (so a value is
    never half cut and half shown).
    """

    def __init__(self, passages: list[Passage], redact: Callable[[str], str] | None = None) -> None:
        self._passages = passages
        self._numbers: dict[int, int] = {}
        self._redact = redact

    def rewrite(self, sentence: str) -> str:
        def replace(match: re.Match[str]) -> str:
            original = int(match.group(1))
            if not 1 <= original <= len(self._passages):
                return ""
            new = self._numbers.setdefault(original, len(self._numbers) + 1)
            return f"[{new}]"

        return MARKER.sub(replace, sentence)

    def citations(self) -> list[Citation]:
        """The cited passages, numbered as they appear in the rewritten text."""
        out = []
        for original, new in sorted(self._numbers.items(), key=lambda item: item[1]):
            p = self._passages[original - 1]
            text = self._redact(p.text) if self._redact is not None else p.text
            snippet = text if len(text) <= SNIPPET_CHARS else text[:SNIPPET_CHARS] + "…"
            out.append(
                Citation(
                    n=new,
                    document_id=p.document_id,
                    document=p.document,
                    snippet=snippet,
                    score=max(0.0, min(1.0, p.score)),
                    url=p.url,
                    page=p.page,
                    heading=p.heading,
                )
            )
        return out
