"""Concurrent identical review calls, over real HTTP, all get the one stored review."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
from sqlalchemy import func, select

from tests.conftest import make_tenant
from vigia.db.session import session_scope
from vigia.review.models import OutputReview


def test_concurrent_identical_calls_store_one_review_and_return_it_to_all(
    live_server: str,
) -> None:
    tenant = make_tenant(name="carrera", slug="bot", kind="external")
    url = f"{live_server}/api/external/v1/agents/{tenant.agent_id}/output-review"
    payload = {
        "turnKey": "msg-race",
        "attempt": 1,
        "message": "¿Entregan el sábado?",
        "reply": "Sí, entregamos todos los días, incluso el domingo.",
    }
    start = threading.Barrier(8)

    def call(_: int) -> dict[str, object]:
        with httpx.Client(timeout=30) as http:
            start.wait()
            response = http.post(
                url, json=payload, headers={"Authorization": f"Bearer {tenant.production_key}"}
            )
        assert response.status_code == 200, response.text
        return response.json()

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(call, range(8)))
    assert len({r["reviewId"] for r in results}) == 1
    assert all(r == results[0] for r in results)
    with session_scope() as session:
        assert session.scalar(select(func.count()).select_from(OutputReview)) == 1
