"""SIGKILL during a streamed answer leaves the database consistent."""

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


def test_sigkill_mid_stream_keeps_earlier_turns_and_writes_no_half_run(data_dir: Path) -> None:
    tenant = make_tenant()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "vigia.cli", "serve", "--port", str(port)],
        env=os.environ.copy(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with serve_in_thread(create_mock(chunk_delay_s=0.05)) as upstream:
            for _ in range(100):
                try:
                    if httpx.get(base + "/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            workspace = f"{base}/admin/workspaces/{tenant.workspace_name}"
            httpx.put(workspace + "/tool-hosts", headers=ADMIN, json={"hosts": ["127.0.0.1"]})
            agent = f"{workspace}/agents/{tenant.agent_slug}"
            httpx.patch(
                agent,
                headers=ADMIN,
                json={
                    "model": {
                        "provider": "openai",
                        "name": "gpt-4o-mini",
                        "base_url": upstream + "/v1",
                    },
                    "guardrails": {"grounding": "off"},
                },
            )
            httpx.post(agent + "/publish", headers=ADMIN)
            auth = {"Authorization": f"Bearer {tenant.production_key}"}
            messages = [{"role": "user", "content": "uno"}]
            body = {"model": tenant.agent_slug, "messages": messages}
            first = httpx.post(base + "/v1/chat/completions", json=body, headers=auth, timeout=30)
            cid = first.json()["sherlock"]["conversation_id"]
            messages[0]["content"] = "dos"
            httpx.post(
                base + "/v1/chat/completions",
                json=body,
                timeout=30,
                headers={**auth, "X-Sherlock-Conversation": cid},
            )
            messages[0]["content"] = "tres"
            with httpx.stream(
                "POST",
                base + "/v1/chat/completions",
                timeout=30,
                json={**body, "stream": True},
                headers={**auth, "X-Sherlock-Conversation": cid},
            ) as stream:
                received = []
                for line in stream.iter_lines():
                    if '"content": "Esta' in line:
                        received.append(line)
                        server.send_signal(signal.SIGKILL)
                        break
            assert received, "the stream had started when the server was killed"
    finally:
        server.kill()
        server.wait(timeout=10)

    with get_engine().connect() as db:
        if db.dialect.name == "sqlite":
            assert db.execute(text("PRAGMA integrity_check")).one() == ("ok",)
        rows = db.execute(
            text("SELECT role, content FROM messages WHERE conversation_id = :c ORDER BY id"),
            {"c": cid},
        ).all()
        runs = db.execute(
            text("SELECT status, completion_tokens FROM runs WHERE conversation_id = :c"),
            {"c": cid},
        ).all()
        orphans = db.execute(
            text("SELECT count(*) FROM run_stages WHERE run_id NOT IN (SELECT id FROM runs)")
        ).one()
    assert [r[0] for r in rows] == ["user", "assistant", "user", "assistant"]
    assert [r[1] for r in rows if r[0] == "user"] == ["uno", "dos"]
    assert [tuple(r) for r in runs] == [("ok", 7), ("ok", 7)]
    assert tuple(orphans) == (0,)
