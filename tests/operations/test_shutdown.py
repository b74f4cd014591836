"""Graceful shutdown: SIGTERM mid-stream lets the stream finish and its turn be stored."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from sqlalchemy import text

from tests.chat_calls import ADMIN
from tests.conftest import make_tenant, serve_in_thread
from vigia.db.session import get_engine
from vigia.llm.mock_upstream import create_mock


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_healthy(base: str) -> None:
    for _ in range(300):
        try:
            if httpx.get(base + "/healthz").status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("server did not start")


def test_sigterm_mid_stream_finishes_the_stream_and_stores_the_turn(data_dir: Path) -> None:
    tenant = make_tenant()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "vigia.cli", "serve", "--port", str(port)],
        env={**os.environ, "VIGIA_SHUTDOWN_GRACE_S": "30"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with serve_in_thread(create_mock(chunk_delay_s=0.2)) as upstream:
            _wait_healthy(base)
            agent = f"{base}/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}"
            model = {"provider": "openai", "name": "gpt-4o-mini", "base_url": upstream + "/v1"}
            patch = {"model": model, "guardrails": {"grounding": "off"}}
            hosts = {"hosts": ["127.0.0.1"]}
            workspace = f"{base}/admin/workspaces/{tenant.workspace_name}"
            assert httpx.put(workspace + "/tool-hosts", headers=ADMIN, json=hosts).is_success
            assert httpx.patch(agent, headers=ADMIN, json=patch).status_code == 200
            assert httpx.post(agent + "/publish", headers=ADMIN).status_code == 200
            body = {
                "model": tenant.agent_slug,
                "stream": True,
                "messages": [{"role": "user", "content": "hola"}],
            }
            auth = {"Authorization": f"Bearer {tenant.production_key}"}
            lines: list[str] = []
            signalled_at = 0
            with httpx.stream(
                "POST", base + "/v1/chat/completions", json=body, headers=auth, timeout=30
            ) as stream:
                for line in stream.iter_lines():
                    lines.append(line)
                    if line.startswith("data: ") and server.poll() is None and len(lines) < 3:
                        server.send_signal(signal.SIGTERM)
                        signalled_at = len([x for x in lines if x.startswith("data: ")])
            # uvicorn re-raises the signal it handled once it has shut down
            assert server.wait(timeout=30) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)

    data = [line for line in lines if line.startswith("data: ")]
    assert signalled_at == 1 and len(data) >= 4, "SIGTERM came right after the first event"
    assert data[-1] == "data: [DONE]"
    streamed = "".join(line for line in lines if '"content"' in line)
    assert "dos frases" in streamed, "the whole answer arrived after SIGTERM"
    with get_engine().connect() as db:
        runs = db.execute(text("SELECT status, streamed FROM runs")).all()
    assert [(status, bool(streamed)) for status, streamed in runs] == [("ok", True)]
