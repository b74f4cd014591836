"""The request log never holds query values or paths with users' words: each request is
logged by its route template (``GET /chat/stream``), status and duration."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient


def test_a_question_in_the_query_never_reaches_the_request_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    question = "cuánto cobra el gerente de nómina"
    with caplog.at_level(logging.INFO, logger="vigia.http"):
        client.get("/chat/stream", params={"message": question, "version": "v1"})
    lines = [r for r in caplog.records if r.name == "vigia.http"]
    assert [(r.__dict__["route"], r.__dict__["status"]) for r in lines] == [("/chat/stream", 401)]
    logged = " ".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
    assert "gerente" not in logged and "n%C3%B3mina" not in logged and "message=" not in logged
