"""A real deployment: nginx in front of two replicas on one PostgreSQL and one Redis.

``scripts/deploy-local`` starts it (docs/deploy.md). Traffic goes through nginx, so
consecutive requests land on different replicas; what must hold across them is checked:
conversations, exact rate limits, budgets, key revocation, and that killing a replica
mid-traffic loses no acknowledged write.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import serve_in_thread
from tests.deploy.conftest import Lb, deployed, skip_on_postgres_pass
from vigia.llm.mock_upstream import create_mock

# One deployment at a time, in one pytest-xdist worker (scripts/test-fast, --dist loadgroup).
pytestmark = [skip_on_postgres_pass, pytest.mark.xdist_group("deploy")]


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with deployed(tmp_path / "deploy") as info:
        yield info


def _tenant(lb: Lb, name: str, model: dict[str, Any] | None = None) -> None:
    lb.adm("POST", "/workspaces", json={"name": name})
    agent = {"slug": "asistente", "instructions": "Atendemos de lunes a viernes de 9 a 18."}
    lb.adm("POST", f"/workspaces/{name}/agents", json=agent)
    if model is not None:
        # The operator lists the upstream's host (a loopback mock: its address).
        host = httpx.URL(model["base_url"]).host
        lb.adm("PUT", f"/workspaces/{name}/tool-hosts", json={"hosts": [host]})
        patch = {"model": model, "guardrails": {"grounding": "off"}}
        lb.adm("PATCH", f"/workspaces/{name}/agents/asistente", json=patch)
    lb.adm("POST", f"/workspaces/{name}/agents/asistente/publish")


def test_two_replicas_behind_nginx_hold_state_and_survive_a_kill(
    deployment: dict[str, Any],
) -> None:
    lb = Lb(deployment["base_url"])
    _tenant(lb, "acme")
    key = lb.key("acme", rpm=1000)["key"]

    # Conversations: every turn of one conversation, whichever replica served it.
    first = lb.chat(key, "hola")
    conversation = first.json()["sherlock"]["conversation_id"]
    upstreams = {first.headers["x-upstream"]}
    for i in range(5):
        r = lb.chat(key, f"pregunta {i}", conversation)
        assert r.status_code == 200
        upstreams.add(r.headers["x-upstream"])
    assert len(upstreams) == 2, "nginx spread the turns over both replicas"
    shown = lb.adm("GET", f"/workspaces/acme/conversations/{conversation}")
    assert len(shown["messages"]) == 12

    # Rate limits are exact across replicas (Redis).
    limited = lb.key("acme", rpm=10)["key"]
    with ThreadPoolExecutor(8) as pool:
        codes = sorted(pool.map(lambda i: lb.chat(limited, f"r{i}").status_code, range(16)))
    assert codes == [200] * 10 + [429] * 6

    # Revocation reaches both replicas once their key caches expire.
    doomed = lb.key("acme")
    assert lb.chat(doomed["key"], "antes").status_code == 200
    lb.adm("DELETE", f"/workspaces/acme/keys/{doomed['id']}")
    time.sleep(1.0)
    revoked = [lb.chat(doomed["key"], "después") for _ in range(4)]
    assert [r.status_code for r in revoked] == [401] * 4
    assert len({r.headers["x-upstream"] for r in revoked}) == 2

    # Budgets: once spent (on whichever replica), every replica pauses the workspace.
    with serve_in_thread(create_mock()) as upstream:
        model = {"provider": "openai", "name": "gpt-4o-mini", "base_url": upstream + "/v1"}
        _tenant(lb, "budget", model)
        paid = lb.key("budget")["key"]
        spent = lb.chat(paid, "hola")
        assert spent.status_code == 200 and spent.json()["sherlock"]["status"] == "ok"
        assert spent.json()["usage"]["completion_tokens"] == 7  # the mock's usage, priced
        lb.adm("PUT", "/workspaces/budget/budget", json={"budget_usd": 1e-6, "action": "pause"})
        paused = [lb.chat(paid, "hola") for _ in range(4)]
    assert [r.json()["sherlock"]["status"] for r in paused] == ["budget_exceeded"] * 4
    assert len({r.headers["x-upstream"] for r in paused}) == 2

    # Kill one replica mid-traffic: every acknowledged turn is stored.
    victim = deployment["state"] / "replica1.pid"
    acknowledged: list[tuple[dict[str, Any], str]] = []
    failures = 0
    for i in range(24):
        if i == 8:
            os.kill(int(victim.read_text()), signal.SIGKILL)
        try:
            r = lb.chat(key, f"mensaje número {i}")
        except httpx.TransportError:
            failures += 1
            continue
        if r.status_code == 200:
            acknowledged.append((r.json()["sherlock"], f"mensaje número {i}"))
        else:
            failures += 1
    assert len(acknowledged) >= 20, f"the survivor kept serving ({failures} failed)"
    assert acknowledged[-1][1] == "mensaje número 23"
    for turn, text in acknowledged:
        run = lb.adm("GET", f"/runs/{turn['run_id']}")
        assert run["status"] == turn["status"] and run["conversation_id"] == turn["conversation_id"]
        if turn["status"] == "ok":  # a blocked input is never stored as a message
            stored = lb.adm("GET", f"/workspaces/acme/conversations/{turn['conversation_id']}")
            messages = stored["messages"]
            assert [m["role"] for m in messages] == ["user", "assistant"]
            assert messages[0]["content"] == text
