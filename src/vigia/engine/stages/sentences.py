"""Cuts a stream of model text into sentences, so each can be checked before it is sent.

With ``hold``, a sentence whose end could be the first part of something the next sentence
completes (``… +54 9 11.`` then ``4567-8901 …``) is kept back and released together with the
next one, so the check sees the whole value before any of it is sent. A run of text with no
sentence end is cut at a space after ``MAX_PENDING_CHARS``, never where the piece sent first
would end in such a start (a number cut in half).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from vigia.language import SENTENCE_END, break_point

MAX_PENDING_CHARS = 600
MAX_CUT_TRIES = 32


class SentenceBuffer:
    """Feed text chunks; get back whole sentences (with their trailing space), in order."""

    def __init__(self, hold: Callable[[str], bool] | None = None) -> None:
        self._pending = ""
        self._scan_from = 0
        self._hold = hold

    def feed(self, text: str) -> Iterator[str]:
        self._pending += text
        while True:
            match = SENTENCE_END.search(self._pending, self._scan_from)
            if match is None or match.end() >= len(self._pending):
                break
            unit = self._pending[: match.end()]
            if self._hold is not None and len(unit) < MAX_PENDING_CHARS and self._hold(unit):
                self._scan_from = match.end()  # wait for the next sentence to decide
                continue
            yield unit
            self._pending = self._pending[match.end() :]
            self._scan_from = 0
        if len(self._pending) > MAX_PENDING_CHARS:
            cut = self._cut()
            yield self._pending[:cut]
            self._pending = self._pending[cut:]
            self._scan_from = 0

    def _cut(self) -> int:
        """Where to cut a pending run too long to wait for its sentence end: the last space
        before the limit whose first piece does not end in an open value (a number cut in
        half), else the last space."""
        cut = break_point(self._pending, MAX_PENDING_CHARS)
        if self._hold is None:
            return cut
        candidate = cut
        for _ in range(MAX_CUT_TRIES):
            if not self._hold(self._pending[:candidate]):
                return candidate
            space = self._pending.rfind(" ", 0, candidate - 1)
            if space <= 0:
                break
            candidate = space + 1
        return cut

    def flush(self) -> Iterator[str]:
        if self._pending:
            yield self._pending
        self._pending = ""
        self._scan_from = 0
