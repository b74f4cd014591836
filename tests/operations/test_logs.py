"""Structured logs: request id in and out, workspace/agent/run on every line, no contents."""

from __future__ import annotations

import contextvars
import io
import json
import logging

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import chat
from tests.conftest import ADMIN_TOKEN, Tenant
from vigia.observability import context, logs

SECRET_MESSAGE = "mi número de tarjeta es 4111 1111 1111 1111, ¿cuál es el horario?"


_CLOCK_AND_PROCESS = {"created", "msecs", "relativeCreated", "thread", "process", "taskName"}


def _text_of(record: logging.LogRecord) -> str:
    """The record's message and every attribute that could carry text (not its timestamps or
    thread and process numbers, whose digits can spell anything)."""
    values = (str(v) for k, v in vars(record).items() if k not in _CLOCK_AND_PROCESS)
    return " ".join([record.getMessage(), *values])


def test_a_chat_logs_its_request_and_turn_with_ids_and_no_contents(
    client: TestClient, tenant: Tenant, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    status, body = chat(
        client,
        tenant.production_key,
        tenant.agent_slug,
        SECRET_MESSAGE,
        headers={"X-Request-Id": "req-42"},
    )
    assert status == 200
    run_id = body["sherlock"]["run_id"]

    requests = [r for r in caplog.records if r.name == "vigia.http" and r.getMessage() == "request"]
    turns = [r for r in caplog.records if r.getMessage() == "turn finished"]
    assert len(requests) == 1 and len(turns) == 1
    request, turn = requests[0], turns[0]
    assert request.levelno == logging.INFO
    assert vars(request)["request_id"] == "req-42"
    assert vars(request)["route"] == "/v1/chat/completions" and vars(request)["status"] == 200
    assert vars(request)["workspace"] == tenant.workspace_id
    assert vars(turn)["request_id"] == "req-42" and vars(turn)["run_id"] == run_id
    assert vars(turn)["agent"] == tenant.agent_id and vars(turn)["status"] == "ok"
    for record in caplog.records:
        if record.levelno >= logging.INFO:
            text = _text_of(record)
            assert "4111 1111" not in text and "41111111" not in text, record
            assert "horario" not in text, record
            assert tenant.production_key not in text and ADMIN_TOKEN not in text, record


def _record_in_a_request() -> logging.LogRecord:
    context.open_request("req-7")
    context.bind(workspace="w1", agent="a1", run_id="r1")
    return logging.getLogger("vigia.test").makeRecord(
        "vigia.test", logging.INFO, __file__, 1, "hello %s", ("there",), None
    )


def test_json_lines_carry_the_request_context() -> None:
    logs.install_context()
    record = contextvars.copy_context().run(_record_in_a_request)
    line = json.loads(logs._JsonLines().format(record))
    assert line["message"] == "hello there" and line["level"] == "INFO"
    assert line["logger"] == "vigia.test" and "time" in line
    assert (line["request_id"], line["workspace"], line["agent"], line["run_id"]) == (
        "req-7",
        "w1",
        "a1",
        "r1",
    )


def test_json_lines_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("VIGIA_LOG_FORMAT", raising=False)
    assert logs.json_lines_wanted(io.StringIO()) is True
    assert logs.json_lines_wanted(Terminal()) is False
    monkeypatch.setenv("VIGIA_LOG_FORMAT", "json")
    assert logs.json_lines_wanted(Terminal()) is True
