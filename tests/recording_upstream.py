"""The mock upstream behind a recorder of each request's ``Authorization`` header."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.conftest import serve_in_thread
from vigia.llm.mock_upstream import create_mock


@contextmanager
def recording_upstream() -> Iterator[tuple[str, list[str]]]:
    """Yields the mock's ``/v1`` URL and the list the Authorization header of every request
    it receives is appended to (``""`` when there is none)."""
    seen: list[str] = []
    mock = create_mock()

    async def recorder(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            seen.append(headers.get(b"authorization", b"").decode("latin-1"))
        await mock(scope, receive, send)

    with serve_in_thread(recorder) as url:
        yield url + "/v1", seen
