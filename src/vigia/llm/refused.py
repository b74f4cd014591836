"""A model whose every call is refused before anything is sent (a key it may not use)."""

from __future__ import annotations

from collections.abc import Iterator

from vigia.errors import UpstreamError
from vigia.llm.protocol import ModelEvent, ModelRequest


class RefusedModel:
    """Raises ``UpstreamError`` (``upstream_refused``) on every call."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        raise UpstreamError(f"model provider refused: {self.reason}", code="upstream_refused")
        yield  # pragma: no cover  (a generator: the error comes on the first read)

    def complete(self, request: ModelRequest) -> str:
        """Refused like ``stream``."""
        raise UpstreamError(f"model provider refused: {self.reason}", code="upstream_refused")
