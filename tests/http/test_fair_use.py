"""Fair use of the server: a work budget per request checked before anything runs, work
that stops when its client goes away, write slots shared between tenants, and the console
playground inside write admission."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from starlette.requests import Request

from tests.conftest import Tenant, make_tenant, serve_in_thread
from tests.console.helpers import log_in, make_user
from vigia.app import create_app
from vigia.config import get_settings
from vigia.conversations.models import Message
from vigia.db import session as db_session
from vigia.engine.models import Run
from vigia.guardrails import verdict_cache as guarded
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.verdict import Verdict
from vigia.http import admission
from vigia.http.write_tenant import tenant_of
from vigia.workspaces.auth import authenticate

SENTENCE = "Quisiera saber el horario de atención de la sucursal del centro, por favor. "


def _text(i: int, chars: int) -> str:
    """A benign message of ``chars`` characters, unlike any other (none checked before)."""
    return (f"Consulta {i} ({uuid.uuid4()}). " + SENTENCE * (chars // len(SENTENCE) + 1))[:chars]


def _dialogue(texts: list[str]) -> list[dict[str, str]]:
    """User messages with a reply between each two, as an OpenAI client resends them."""
    out: list[dict[str, str]] = []
    for text in texts:
        if out:
            out.append({"role": "assistant", "content": "Entendido."})
        out.append({"role": "user", "content": text})
    return out


def _chat(texts: list[str], stream: bool = False) -> dict[str, object]:
    return {"model": "asistente", "messages": _dialogue(texts), "stream": stream}


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _count(model: type) -> int:
    with db_session.session_scope() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


class CountedChecks:
    """Replaces the input checks of one message: counts calls, optionally sleeping."""

    def __init__(self, sleep_s: float = 0.0, slow_word: str = "") -> None:
        self.calls = 0
        self.sleep_s = sleep_s
        self.slow_word = slow_word
        self._lock = threading.Lock()

    def __call__(self, message: str, config: GuardrailsConfig) -> list[Verdict]:
        with self._lock:
            self.calls += 1
        if self.sleep_s and self.slow_word in message:
            time.sleep(self.sleep_s)
        return []


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> CountedChecks:
    counted = CountedChecks()
    monkeypatch.setattr(guarded, "check_message", counted)
    return counted


def _gate_settings(monkeypatch: pytest.MonkeyPatch, slots: int, queue: int = 100) -> None:
    monkeypatch.setenv("VIGIA_WRITE_CONCURRENCY", str(slots))
    monkeypatch.setenv("VIGIA_WRITE_QUEUE", str(queue))
    get_settings.cache_clear()  # the apps created next read them


# --- the work budget -------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_a_request_past_the_work_budget_is_413_before_any_check_or_model_runs(
    client: TestClient, tenant: Tenant, checks: CountedChecks, stream: bool
) -> None:
    count = guarded.MAX_UNCHECKED_CHARS // 1000 + 1
    body = _chat([_text(i, 1000) for i in range(count)], stream=stream)
    refused = client.post("/v1/chat/completions", json=body, headers=_auth(tenant.draft_key))
    assert refused.status_code == 413, refused.text
    assert set(refused.json()) == {"detail"}
    assert str(guarded.MAX_UNCHECKED_CHARS) in refused.json()["detail"]
    assert checks.calls == 0
    assert _count(Run) == 0 and _count(Message) == 0


def test_many_short_messages_count_at_least_the_floor_each(
    client: TestClient, tenant: Tenant, checks: CountedChecks
) -> None:
    count = guarded.MAX_UNCHECKED_CHARS // guarded.MESSAGE_FLOOR_CHARS + 1
    body = _chat([f"hola {i}" for i in range(count)])
    refused = client.post("/v1/chat/completions", json=body, headers=_auth(tenant.draft_key))
    assert refused.status_code == 413, refused.text
    assert checks.calls == 0


def test_history_checked_before_costs_nothing_of_the_budget(
    client: TestClient, tenant: Tenant
) -> None:
    half = guarded.MAX_UNCHECKED_CHARS // 2000
    first = [_text(i, 1000) for i in range(half)]
    headers = _auth(tenant.draft_key)
    assert client.post("/v1/chat/completions", json=_chat(first), headers=headers).is_success
    later = first + [_text(100 + i, 1000) for i in range(half + 1)]  # over the budget in all
    answered = client.post("/v1/chat/completions", json=_chat(later), headers=headers)
    assert answered.status_code == 200, answered.text
    assert _count(Run) == 2


def test_the_longest_message_allowed_fits_the_budget() -> None:
    config = GuardrailsConfig(max_message_chars=100_000)
    assert guarded.check_cost("x" * 100_000, config) <= guarded.MAX_UNCHECKED_CHARS
    assert guarded.check_cost("x" * 5000, GuardrailsConfig()) == guarded.MESSAGE_FLOOR_CHARS
    assert guarded.check_cost("hola", GuardrailsConfig(injection="off")) == 0


# --- work stops when the client goes away ----------------------------------------------


@pytest.fixture
def served_app() -> FastAPI:
    return create_app()


@pytest.fixture
def server(served_app: FastAPI) -> Iterator[str]:
    with serve_in_thread(served_app) as url:
        yield url


@pytest.mark.parametrize("stream", [False, True])
def test_a_client_that_goes_away_stops_the_checks_and_stores_nothing(
    server: str,
    served_app: FastAPI,
    tenant: Tenant,
    monkeypatch: pytest.MonkeyPatch,
    stream: bool,
) -> None:
    slow = CountedChecks(sleep_s=0.3)
    monkeypatch.setattr(guarded, "check_message", slow)
    texts = [_text(i, 300) for i in range(12)]  # 12 checks: 3.6 s of work
    with pytest.raises(httpx.ReadTimeout):
        httpx.post(
            f"{server}/v1/chat/completions",
            json=_chat(texts, stream=stream),
            headers=_auth(tenant.draft_key),
            timeout=httpx.Timeout(5.0, read=0.7),
        )
    time.sleep(0.8)  # the check under way when the client left ends
    stopped_at = slow.calls
    time.sleep(1.0)
    assert slow.calls == stopped_at < len(texts)
    assert served_app.state.write_gate.running == 0
    assert _count(Run) == 0 and _count(Message) == 0


# --- write slots shared between tenants ------------------------------------------------


def test_one_tenant_holds_at_most_all_slots_but_one() -> None:
    gate = admission.WriteGate(slots=4, queue=10, wait_s=5)

    async def scenario() -> tuple[bool, int]:
        for _ in range(3):
            await gate.acquire("a")
        fourth = asyncio.create_task(gate.acquire("a"))
        await asyncio.sleep(0.01)
        queued = not fourth.done()
        await asyncio.wait_for(gate.acquire("b"), 0.5)  # the slot kept for the others
        running = gate.running
        gate.release(tenant="a")
        await asyncio.wait_for(fourth, 0.5)  # a's turn again, under its share
        return queued, running

    queued, running = asyncio.run(scenario())
    assert queued and running == 4
    assert gate.held == {"a": 3, "b": 1} and gate.waiting == 0


def test_the_keys_of_one_workspace_share_its_share() -> None:
    gate = admission.WriteGate(slots=3, queue=10, wait_s=5)

    async def scenario() -> bool:
        await gate.acquire(("key:1", "ws:w"))
        await gate.acquire(("key:2", "ws:w"))
        third = asyncio.create_task(gate.acquire(("key:3", "ws:w")))
        await asyncio.sleep(0.01)
        queued = not third.done()
        await asyncio.wait_for(gate.acquire(("key:4", "ws:v")), 0.5)
        gate.release(tenant=("key:1", "ws:w"))
        await asyncio.wait_for(third, 0.5)
        return queued

    assert asyncio.run(scenario())
    assert gate.held == {"key:2": 1, "key:3": 1, "key:4": 1, "ws:w": 2, "ws:v": 1}


def test_freed_slots_go_to_the_tenants_in_turn() -> None:
    gate = admission.WriteGate(slots=2, queue=10, wait_s=5)
    order: list[str] = []

    async def writer(tenant: str) -> None:
        await gate.acquire(tenant)
        order.append(tenant)

    async def scenario() -> None:
        await gate.acquire("a")
        await gate.acquire("b")
        tasks = [asyncio.create_task(writer(t)) for t in ("a", "a", "a", "b", "b")]
        await asyncio.sleep(0.01)
        for tenant in ("a", "b", "a", "b", "a"):
            gate.release(tenant=tenant)
            await asyncio.sleep(0.01)
        await asyncio.gather(*tasks)

    asyncio.run(scenario())
    assert order == ["a", "b", "a", "b", "a"]


def test_the_keys_of_one_workspace_count_as_one_tenant(client: TestClient, tenant: Tenant) -> None:
    def labels(key: str) -> tuple[str, ...]:
        scope = {"type": "http", "headers": [(b"authorization", f"Bearer {key}".encode())]}
        return tenant_of(Request(scope))

    production, draft = labels(tenant.production_key), labels(tenant.draft_key)
    assert len(production) == len(draft) == 1 and production != draft
    authenticate(tenant.production_key)
    authenticate(tenant.draft_key)
    workspace = f"ws:{tenant.workspace_id}"
    assert labels(tenant.production_key) == (*production, workspace)
    assert labels(tenant.draft_key) == (*draft, workspace)


def test_another_workspace_writes_while_one_key_fills_the_slots(
    tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    _gate_settings(monkeypatch, slots=2)
    monkeypatch.setattr(guarded, "check_message", CountedChecks(sleep_s=3.0, slow_word="LENTO"))
    other = make_tenant(name="otra")
    with serve_in_thread(create_app()) as url:
        question = _chat(["¿Qué horario tienen?"])
        warm = httpx.post(
            f"{url}/v1/chat/completions", json=question, headers=_auth(other.draft_key)
        )
        assert warm.status_code == 200, warm.text  # the models are loaded
        heavy = _chat(["LENTO: " + _text(0, 200)])

        def attack() -> None:
            httpx.post(
                f"{url}/v1/chat/completions",
                json=heavy,
                headers=_auth(tenant.draft_key),
                timeout=30,
            )

        attackers = [threading.Thread(target=attack) for _ in range(3)]
        for thread in attackers:
            thread.start()
        time.sleep(0.5)  # they hold their share and queue the rest
        started = time.monotonic()
        answered = httpx.post(
            f"{url}/v1/chat/completions", json=question, headers=_auth(other.draft_key), timeout=30
        )
        waited = time.monotonic() - started
        for thread in attackers:
            thread.join()
    assert answered.status_code == 200, answered.text
    assert waited < 2.0, f"the other workspace waited {waited:.1f} s"


# --- the playground inside write admission ---------------------------------------------


def test_the_playground_waits_for_a_write_slot_like_any_write(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    token = log_in(client, "ana")
    gate = admission.WriteGate(1, 0, get_settings().write_wait_s)
    assert isinstance(client.app, FastAPI)
    client.app.state.write_gate = gate  # in place of the app's own, one slot and no queue
    asyncio.run(gate.acquire())
    try:
        busy = client.post(
            f"/console/w/{tenant.workspace_id}/agents/{tenant.agent_slug}/chat",
            data={"csrf": token, "message": "hola"},
        )
    finally:
        gate.release()
    assert busy.status_code == 503, busy.text
    assert int(busy.headers["retry-after"]) >= 1
    assert _count(Run) == 0 and _count(Message) == 0
