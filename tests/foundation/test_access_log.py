"""The access log `vigia serve` writes never holds query values (users' questions)."""

from __future__ import annotations

import logging

import httpx
import pytest

from tests.conftest import serve_in_thread
from vigia.access_log import logging_config, redact_query
from vigia.app import create_app


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_query_values_are_redacted_in_the_access_log() -> None:
    capture = Capture()
    with serve_in_thread(create_app(), log_config=logging_config(), log_level="info") as url:
        access = logging.getLogger("uvicorn.access")
        access.addHandler(capture)
        try:
            question = "cuánto cobra el gerente de nómina"
            httpx.get(f"{url}/chat/stream", params={"message": question, "version": "v1"})
            httpx.get(f"{url}/healthz")
        finally:
            access.removeHandler(capture)
    assert any(
        '"GET /chat/stream?message=***&version=*** HTTP/1.1" 401' in line for line in capture.lines
    ), capture.lines
    assert not any("gerente" in line or "cu%C3%A1nto" in line for line in capture.lines)
    assert any('"GET /healthz HTTP/1.1" 200' in line for line in capture.lines)


@pytest.mark.parametrize(
    ("target", "logged"),
    [
        ("/healthz", "/healthz"),
        ("/chat/stream?message=hola%20mundo", "/chat/stream?message=***"),
        ("/x?a=1&b&=c&&d=", "/x?a=***&b=***&=***&d=***"),
    ],
)
def test_redact_query_keeps_names_only(target: str, logged: str) -> None:
    assert redact_query(target) == logged
