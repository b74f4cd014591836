"""Worlds chat under a saturated writer: 503 with Retry-After in ``{"detail": …}``, and a
turn whose write fails half-way stores neither the conversation nor any message."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.errors import Response
from vigia.db.session import session_scope
from vigia.errors import Overloaded
from vigia.http import admission
from vigia.worlds.chat import conversations
from vigia.worlds.ingest.indexer import IndexReport
from vigia.worlds.models import WorldConversation, WorldMessage

W = "payroll-2024"
BODY = {"message": "What does CALC-TAX do?", "version": W, "knowledge": True}


def _stored() -> tuple[int, int]:
    with session_scope() as session:
        count = [
            session.scalar(select(func.count()).select_from(model))
            for model in (WorldConversation, WorldMessage)
        ]
    return int(count[0] or 0), int(count[1] or 0)


def _assert_busy(response: Response) -> None:
    assert response.status_code == 503, response.text
    assert int(response.headers["retry-after"]) >= 1
    body = response.json()
    assert set(body) == {"detail"} and "retry" in body["detail"]


def test_chat_and_stream_answer_503_while_the_writer_is_full(
    alice: TestClient, payroll: IndexReport, one_slot: admission.WriteGate
) -> None:
    _assert_busy(alice.post("/chat", json=BODY))
    _assert_busy(alice.get("/chat/stream", params={k: str(v) for k, v in BODY.items()}))
    assert alice.get("/conversations").status_code == 200  # reads still answer
    assert _stored() == (0, 0)


def test_a_turn_whose_write_fails_half_way_stores_nothing(
    alice: TestClient, payroll: IndexReport, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_append = conversations.append

    def append(session: object, conversation: object, role: str, *rest: object) -> object:
        if role == "assistant":
            busy = "the server is busy writing; retry shortly"
            raise Overloaded(busy, headers={"Retry-After": "2"})
        return real_append(session, conversation, role, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(conversations, "append", append)
    _assert_busy(alice.post("/chat", json=BODY))
    assert _stored() == (0, 0)
