"""A database error mid-request logs no contents: SQLAlchemy's messages and tracebacks carry
no bound parameters (``hide_parameters``), so neither the message, the reply nor a key (its
hash, its prefix) reaches any log handler."""

from __future__ import annotations

import io
import logging
import sys
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import text

from tests.conftest import ADMIN_TOKEN, Tenant, serve_in_thread
from vigia.app import create_app
from vigia.db import session as db_session
from vigia.observability import logs
from vigia.workspaces import service as workspace_service
from vigia.workspaces.keys import display_prefix, hash_key

MESSAGE = "quiero saber el horario del zorzal cobrizo 7731 en Quilmes"
KEY = "sk-vigia-" + "Zq8" * 14


@pytest.fixture
def all_logs(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> Iterator[io.StringIO]:
    """Every log line at DEBUG: the handler ``vigia serve`` installs (JSON lines, uvicorn's
    loggers routed through it) and caplog's records."""
    stream = io.StringIO()
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    monkeypatch.setenv("VIGIA_LOG_FORMAT", "json")
    monkeypatch.setattr(sys, "stderr", stream)
    logs.configure("debug")
    root.addHandler(caplog.handler)
    caplog.handler.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        root.handlers, _ = saved
        root.setLevel(saved[1])


def _rename(table: str) -> None:
    """Makes every statement on ``table`` fail (the table is gone under its name)."""
    with db_session.get_writer_engine().begin() as conn:
        conn.execute(text(f"ALTER TABLE {table} RENAME TO {table}_gone"))


def _chat(base: str, key: str, message: str) -> httpx.Response:
    body = {"model": "asistente", "messages": [{"role": "user", "content": message}]}
    headers = {"Authorization": f"Bearer {key}"}
    return httpx.post(base + "/v1/chat/completions", json=body, headers=headers, timeout=60)


def test_a_failing_turn_and_key_logs_no_message_reply_or_key(
    tenant: Tenant,
    caplog: pytest.LogCaptureFixture,
    all_logs: io.StringIO,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(workspace_service, "generate_key", lambda: KEY)
    # as ``vigia serve`` runs uvicorn: its loggers go through the configured handler
    with serve_in_thread(create_app(), log_level="debug", log_config=None) as base:
        first = _chat(base, tenant.production_key, MESSAGE)
        assert first.status_code == 200
        reply = first.json()["choices"][0]["message"]["content"]
        assert len(reply) > 20

        _rename("messages")  # the turn's messages cannot be stored
        failed = _chat(base, tenant.production_key, MESSAGE)
        assert failed.status_code == 500

        admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        keys = f"{base}/admin/workspaces/{tenant.workspace_id}/keys"
        assert httpx.post(keys, json={}, headers=admin).status_code == 201
        # the same key again: a unique violation, whose PostgreSQL DETAIL quotes the hash
        assert httpx.post(keys, json={}, headers=admin).status_code == 500

        _rename("api_keys")  # a key can be neither created nor looked up
        assert httpx.post(keys, json={}, headers=admin).status_code == 500
        assert _chat(base, "sk-vigia-" + "Yw4" * 14, "hola").status_code == 500

    written = caplog.text + all_logs.getvalue()
    assert written.count("sqlalchemy.exc.") >= 4, "the four failures were logged"
    if db_session.get_engine().dialect.name == "postgresql":
        assert "DETAIL:  (hidden" in written, "the unique violation's DETAIL was logged, hidden"
    assert MESSAGE not in written and "zorzal cobrizo" not in written
    assert reply not in written and reply[:40] not in written
    looked_up = "sk-vigia-" + "Yw4" * 14
    for secret in (KEY, hash_key(KEY), display_prefix(KEY), hash_key(looked_up)):
        assert secret not in written
    assert tenant.production_key not in written
    assert hash_key(tenant.production_key) not in written


def test_a_postgresql_detail_line_is_emptied_in_any_handler(
    caplog: pytest.LogCaptureFixture,
) -> None:
    logs.install_context()
    detail = 'DETAIL:  Failing row contains (7, user, "mi DNI es 12345678Z").'
    try:
        raise RuntimeError(f"null value in column violates not-null constraint\n{detail}")
    except RuntimeError:
        logging.getLogger("vigia.test").exception("insert failed")
    record = caplog.records[-1]
    assert "12345678Z" not in caplog.text and "12345678Z" not in logs._JsonLines().format(record)
    assert "DETAIL:  (hidden: it may quote stored values)" in caplog.text
