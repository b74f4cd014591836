"""Writes are committed before the response is sent: an acknowledged write is durable.

FastAPI ends ``yield`` dependencies after the response by default (``scope="request"``);
the request's session must end, and commit, before it (``scope="function"``), or a client
could see 200 for a write that a crash or a failed commit then loses, and another replica
could read the old state right after the 200 (the nginx deployment test caught this).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from starlette.types import Message, Receive, Scope, Send

from tests.chat_calls import ADMIN
from tests.conftest import Tenant
from vigia.app import create_app


def test_admin_and_review_writes_commit_before_the_response(
    monkeypatch: pytest.MonkeyPatch, tenant: Tenant
) -> None:
    events: list[str] = []
    commit = Session.commit

    def recorded_commit(self: Session) -> None:
        commit(self)
        events.append("commit")

    monkeypatch.setattr(Session, "commit", recorded_commit)
    app = create_app()

    async def watched(scope: Scope, receive: Receive, send: Send) -> None:
        async def send_watched(message: Message) -> None:
            if message["type"] == "http.response.start":
                events.append("response")
            await send(message)

        await app(scope, receive, send_watched)

    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("POST", "/admin/workspaces", {"name": "nueva"}),
        ("PUT", f"/admin/workspaces/{tenant.workspace_name}/budget", {"budget_usd": 5.0}),
    ]
    with TestClient(watched) as client:
        for method, path, body in calls:
            events.clear()
            response = client.request(method, path, json=body, headers=ADMIN)
            assert response.status_code < 300, response.text
            assert events == ["commit", "response"], (path, events)
