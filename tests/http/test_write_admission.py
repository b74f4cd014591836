"""Write admission and short write transactions: a saturated writer answers 503 with
Retry-After in each surface's error shape, reads keep working, nothing half-written stays."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from prometheus_client import REGISTRY
from sqlalchemy import func, select

from tests.conftest import PG_URL, Tenant, make_tenant
from tests.errors import Response
from vigia.config import get_settings
from vigia.conversations.models import Conversation, Message
from vigia.db import session as db_session
from vigia.decide.models import DecideUsage
from vigia.engine.models import Run
from vigia.errors import Overloaded
from vigia.http import admission
from vigia.review import service as review_service
from vigia.review.models import OutputReview

REVIEW = {"turnKey": "t-1", "attempt": 1, "message": "¿Abren hoy?", "reply": "Sí, hasta las 18."}
CHAT = {"model": "asistente", "messages": [{"role": "user", "content": "¿Qué horario tienen?"}]}
DECIDE = {
    "state": "Me cobraron dos veces",
    "questions": {"reembolso": {"type": "binary", "ask": "¿Pide un reembolso?"}},
}


def _refusals(reason: str) -> float:
    """The ``vigia_busy_refusals`` counter for ``reason``, as the metrics page reports it."""
    value = REGISTRY.get_sample_value("vigia_busy_refusals_total", {"reason": reason})
    return value or 0.0


def _count(model: type) -> int:
    with db_session.session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def _stored_writes() -> dict[str, int]:
    tables = (OutputReview, Run, Conversation, Message, DecideUsage)
    return {model.__name__: _count(model) for model in tables}


@pytest.fixture
def reviewer(tenant: Tenant) -> Tenant:
    return make_tenant(name="externa", slug="bot", kind="external")


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _assert_busy(response: Response, shape: Callable[[dict[str, object]], bool]) -> None:
    assert response.status_code == 503, response.text
    assert int(response.headers["retry-after"]) >= 1
    body = response.json()
    assert shape(body), body


def _detail_only(body: dict[str, object]) -> bool:
    return set(body) == {"detail"} and "retry" in str(body["detail"])


def _writer_busy(body: dict[str, object]) -> bool:
    return _detail_only(body) and "busy writing" in str(body["detail"])


def test_saturated_writer_answers_503_with_retry_after_in_each_surface_shape(
    client: TestClient, tenant: Tenant, reviewer: Tenant, one_slot: admission.WriteGate
) -> None:
    before = _stored_writes()
    review_url = f"/api/external/v1/agents/{reviewer.agent_id}/output-review"
    review = client.post(review_url, json=REVIEW, headers=_auth(reviewer.production_key))
    _assert_busy(review, lambda b: _detail_only(b) and "too many writes" in str(b["detail"]))
    chat = client.post("/v1/chat/completions", json=CHAT, headers=_auth(tenant.production_key))
    _assert_busy(chat, _detail_only)
    streamed = client.post(
        "/v1/chat/completions", json={**CHAT, "stream": True}, headers=_auth(tenant.production_key)
    )
    _assert_busy(streamed, _detail_only)
    decide = client.post("/v1/decide", json=DECIDE, headers=_auth(tenant.production_key))
    _assert_busy(decide, lambda b: set(b) == {"detail", "error"} and b["error"] == "overloaded")
    assert _stored_writes() == before


def test_reads_are_served_while_the_writer_is_saturated(
    client: TestClient, tenant: Tenant, one_slot: admission.WriteGate
) -> None:
    models = client.get("/v1/models", headers=_auth(tenant.production_key))
    assert models.status_code == 200
    assert [m["id"] for m in models.json()["data"]] == ["asistente"]


def test_a_freed_slot_admits_the_write_and_stores_it_once(
    client: TestClient, reviewer: Tenant, one_slot: admission.WriteGate
) -> None:
    url = f"/api/external/v1/agents/{reviewer.agent_id}/output-review"
    assert client.post(url, json=REVIEW, headers=_auth(reviewer.production_key)).status_code == 503
    one_slot.release()
    admitted = client.post(url, json=REVIEW, headers=_auth(reviewer.production_key))
    asyncio.run(one_slot.acquire())  # the fixture releases it again
    assert admitted.status_code == 200, admitted.text
    assert _count(OutputReview) == 1


def test_queue_waits_then_refuses_after_the_wait_limit() -> None:
    gate = admission.WriteGate(slots=1, queue=1, wait_s=0.05)

    async def scenario() -> tuple[Overloaded, Overloaded]:
        await gate.acquire()
        waited = asyncio.create_task(gate.acquire())
        await asyncio.sleep(0)  # the second caller is queued
        with pytest.raises(Overloaded) as full:
            await gate.acquire()  # a third finds the queue full
        with pytest.raises(Overloaded) as late:
            await waited
        return full.value, late.value

    refused_before = {why: _refusals(why) for why in ("queue full", "waited too long")}
    full, late = asyncio.run(scenario())
    assert full.status == late.status == 503
    assert "queue full" in full.detail and "waited too long" in late.detail
    assert int(full.headers["Retry-After"]) >= 1
    assert gate.running == 1 and gate.waiting == 0
    assert {why: _refusals(why) - n for why, n in refused_before.items()} == {
        "queue full": 1,
        "waited too long": 1,
    }


def test_a_released_slot_goes_to_the_longest_waiter() -> None:
    gate = admission.WriteGate(slots=1, queue=10, wait_s=5)
    order: list[int] = []

    async def writer(n: int) -> None:
        await gate.acquire()
        order.append(n)
        await asyncio.sleep(0)
        gate.release(0.01)

    async def scenario() -> None:
        await gate.acquire()
        tasks = [asyncio.create_task(writer(n)) for n in range(3)]
        await asyncio.sleep(0)
        gate.release()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())
    assert order == [0, 1, 2]
    assert gate.running == 0 and gate.waiting == 0


def test_no_writer_connection_in_time_is_503_and_stores_nothing(
    client: TestClient, tenant: Tenant, reviewer: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_session, "WRITER_POOL_TIMEOUT_S", 0.2)
    monkeypatch.setenv("VIGIA_WRITE_CONCURRENCY", "1")
    get_settings.cache_clear()
    db_session.writer_engine_for.cache_clear()
    engine = db_session.get_writer_engine()
    capacity = 2 if PG_URL else 1  # PostgreSQL: the pool and as many again of overflow
    held = [engine.connect() for _ in range(capacity)]
    refused_before = _refusals("writer busy")
    try:
        url = f"/api/external/v1/agents/{reviewer.agent_id}/output-review"
        review = client.post(url, json=REVIEW, headers=_auth(reviewer.production_key))
        chat = client.post("/v1/chat/completions", json=CHAT, headers=_auth(tenant.production_key))
    finally:
        for connection in held:
            connection.close()
    _assert_busy(review, _writer_busy)
    _assert_busy(chat, _writer_busy)
    assert _count(OutputReview) == 0 and _count(Run) == 0 and _count(Message) == 0
    assert _refusals("writer busy") - refused_before == 2


@pytest.mark.skipif(bool(PG_URL), reason="SQLite's file lock")
def test_sqlite_lock_held_past_the_busy_timeout_is_503_and_stores_nothing(
    client: TestClient, reviewer: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_session, "BUSY_TIMEOUT_MS", 200)
    db_session.writer_engine_for.cache_clear()
    other = sqlite3.connect(get_settings().data_dir / "vigia.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        url = f"/api/external/v1/agents/{reviewer.agent_id}/output-review"
        review = client.post(url, json=REVIEW, headers=_auth(reviewer.production_key))
    finally:
        other.execute("ROLLBACK")
        other.close()
    _assert_busy(review, _writer_busy)
    assert _count(OutputReview) == 0


def test_a_write_transaction_that_fails_half_way_leaves_nothing(tenant: Tenant) -> None:
    with pytest.raises(RuntimeError), db_session.write_scope() as session:
        conversation = Conversation(workspace_id=tenant.workspace_id, agent_id=tenant.agent_id)
        session.add(conversation)
        session.flush()
        raise RuntimeError("crash between two writes")
    assert _count(Conversation) == 0


def test_a_review_whose_thread_write_fails_stores_no_review(
    client: TestClient, reviewer: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    with db_session.session_scope() as session:
        thread = Conversation(workspace_id=reviewer.workspace_id, agent_id=reviewer.agent_id)
        session.add(thread)
    busy = Overloaded("the server is busy writing; retry shortly", headers={"Retry-After": "2"})

    def fail(*args: object, **kwargs: object) -> None:
        raise busy

    monkeypatch.setattr(review_service, "add_message", fail)
    url = f"/api/external/v1/agents/{reviewer.agent_id}/output-review"
    body = {**REVIEW, "threadId": thread.id}
    response = client.post(url, json=body, headers=_auth(reviewer.production_key))
    _assert_busy(response, _writer_busy)
    assert _count(OutputReview) == 0 and _count(Message) == 0


def test_slots_are_released_after_json_and_streamed_answers(
    client: TestClient, tenant: Tenant
) -> None:
    headers = _auth(tenant.production_key)
    assert client.post("/v1/chat/completions", json=CHAT, headers=headers).status_code == 200
    with client.stream(
        "POST", "/v1/chat/completions", json={**CHAT, "stream": True}, headers=headers
    ) as streamed:
        assert streamed.status_code == 200
        assert "data: [DONE]" in "".join(streamed.iter_text())
    assert isinstance(client.app, FastAPI)
    gate = client.app.state.write_gate
    assert gate.running == 0 and gate.waiting == 0
