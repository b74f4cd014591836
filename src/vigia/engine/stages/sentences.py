"""Cuts a stream of model text into sentences, so each can be checked before it is sent."""

from __future__ import annotations

from collections.abc import Iterator

from vigia.language import SENTENCE_END, break_point

MAX_PENDING_CHARS = 600


class SentenceBuffer:
    """Feed text chunks; get back whole sentences (with their trailing space), in order."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, text: str) -> Iterator[str]:
        self._pending += text
        while True:
            match = SENTENCE_END.search(self._pending)
            if match is None or match.end() >= len(self._pending):
                break
            yield self._pending[: match.end()]
            self._pending = self._pending[match.end() :]
        if len(self._pending) > MAX_PENDING_CHARS:
            cut = break_point(self._pending, MAX_PENDING_CHARS)
            yield self._pending[:cut]
            self._pending = self._pending[cut:]

    def flush(self) -> Iterator[str]:
        if self._pending:
            yield self._pending
        self._pending = ""
