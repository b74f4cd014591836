"""The monthly token quota: counted per request, refused with 429 when exceeded, atomic.

The fake encoder is used: quota accounting does not depend on the answers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.decide.helpers import SPEC_BODY
from vigia.db.session import session_scope
from vigia.decide import repository
from vigia.decide.schemas import DecideRequest
from vigia.decide.service import request_tokens
from vigia.llm.tokens import count_tokens

pytestmark = pytest.mark.usefixtures("fake_encoder")


def _used(tenant: Tenant) -> int:
    with session_scope() as session:
        return repository.used(session, tenant.workspace_id, repository.current_month())


def test_tokens_count_every_text_read() -> None:
    body = {
        "state": "hola mundo",
        "questions": {
            "q": {
                "type": "choice",
                "ask": "¿Cuál?",
                "options": {"a": "uno", "b": None},
                "examples": [{"state": "ejemplo", "answer": "a"}],
            }
        },
    }
    parts = ["hola mundo", "q", "¿Cuál?", "a", "uno", "b", "ejemplo", "a"]
    assert request_tokens(DecideRequest.model_validate(body)) == sum(map(count_tokens, parts))


def test_usage_accumulates_over_the_month(
    client: TestClient, headers: dict[str, str], tenant: Tenant
) -> None:
    first = client.post("/v1/decide", json=SPEC_BODY, headers=headers).json()["usage"]
    second = client.post("/v1/decide", json=SPEC_BODY, headers=headers).json()["usage"]
    assert second["tokens"] == first["tokens"] > 0
    assert second["tokens_este_mes"] == 2 * first["tokens"] == _used(tenant)


def test_request_over_quota_is_refused_and_not_counted(
    client: TestClient, headers: dict[str, str], tenant: Tenant, set_quota: Callable[[int], None]
) -> None:
    tokens = request_tokens(DecideRequest.model_validate(SPEC_BODY))
    set_quota(tokens + tokens // 2)
    assert client.post("/v1/decide", json=SPEC_BODY, headers=headers).status_code == 200
    refused = client.post("/v1/decide", json=SPEC_BODY, headers=headers)
    assert refused.status_code == 429
    assert refused.json()["error"] == "quota_exceeded" and refused.json()["detail"]
    assert _used(tenant) == tokens
    small = {"state": "x", "questions": {"q": {"type": "binary", "ask": "¿Sí?"}}}
    accepted = client.post("/v1/decide", json=small, headers=headers)
    assert accepted.status_code == 200
    assert accepted.json()["usage"]["cuota_mensual"] == tokens + tokens // 2


def test_quota_is_exact_under_concurrent_charges(tenant: Tenant) -> None:
    month = repository.current_month()
    results: list[int | None] = []
    lock = threading.Lock()

    def charge() -> None:
        with session_scope() as session:
            total = repository.charge(session, tenant.workspace_id, month, 10, quota=55)
        with lock:
            results.append(total)

    threads = [threading.Thread(target=charge) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    accepted = sorted(t for t in results if t is not None)
    assert accepted == [10, 20, 30, 40, 50]
    assert _used(tenant) == 50


def test_concurrent_http_requests_never_pass_the_quota(
    client: TestClient, headers: dict[str, str], tenant: Tenant, set_quota: Callable[[int], None]
) -> None:
    tokens = request_tokens(DecideRequest.model_validate(SPEC_BODY))
    set_quota(3 * tokens)
    codes: list[int] = []

    def call() -> None:
        codes.append(client.post("/v1/decide", json=SPEC_BODY, headers=headers).status_code)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [200] * 3 + [429] * 5
    assert _used(tenant) == 3 * tokens


def test_systemone_counts_against_the_same_quota(
    client: TestClient, headers: dict[str, str], tenant: Tenant
) -> None:
    body = {"state": "hola", "questions": {"q": {"type": "noul", "instructions": "¿Saluda?"}}}
    data = client.post("/v1/systemone", json=body, headers=headers).json()
    assert data["usage"]["input_tokens"] > 0
    assert _used(tenant) == data["usage"]["input_tokens"]
