"""Shared fixtures: blocked network, a migrated database per test, the app and its clients."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from argon2 import PasswordHasher
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Connection, create_engine, text

from tests import route_handlers
from vigia.agents.schemas import AgentCreate
from vigia.agents.service import create_agent, publish
from vigia.app import create_app
from vigia.config import get_settings
from vigia.db import session as db_session
from vigia.db.migrate import upgrade
from vigia.http import admission
from vigia.llm.mock_upstream import create_mock
from vigia.users import service as users_service
from vigia.users import throttle
from vigia.workspaces import auth, revocation
from vigia.workspaces.service import create_key, create_workspace

route_handlers.share()  # every app of the suite shares its routes' built handlers

ADMIN_TOKEN = "test-admin-token-0123456789abcdef"
_LOOPBACK = ("127.", "::1", "localhost")
_real_connect = socket.socket.connect


def _guarded_connect(self: socket.socket, address: object) -> object:
    host = address[0] if isinstance(address, tuple) else str(address)
    if isinstance(host, str) and (host.startswith(_LOOPBACK) or self.family == socket.AF_UNIX):
        return _real_connect(self, address)  # type: ignore[arg-type]
    raise RuntimeError(f"network access blocked in tests: {address!r}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that drive chromium share one pytest-xdist worker: one browser runs at a time."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("browser"))


PRODUCTION_HASHES = (users_service._HASHER, users_service._DUMMY_HASH)


@pytest.fixture(scope="session", autouse=True)
def _cheap_password_hashes() -> Iterator[None]:
    """argon2 with tiny costs: tests create and log in users by the hundred, the rules are the
    same (the production parameters are asserted in tests/users/test_password_hashes.py)."""
    with pytest.MonkeyPatch.context() as patch:
        cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        patch.setattr(users_service, "_HASHER", cheap)
        patch.setattr(users_service, "_DUMMY_HASH", cheap.hash("not-a-real-password"))
        yield


@pytest.fixture(autouse=True)
def _block_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may reach the network: only loopback and unix sockets connect."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)


# With VIGIA_TEST_DATABASE_URL=postgresql://user@host:port/db the suite runs on PostgreSQL:
# one database migrated once as a template, and a fresh copy of it for every test.
PG_URL = os.environ.get("VIGIA_TEST_DATABASE_URL")
needs_postgres = pytest.mark.skipif(
    not PG_URL, reason="needs PostgreSQL: set VIGIA_TEST_DATABASE_URL=postgresql://…"
)


@pytest.fixture(scope="session")
def _migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path | str:
    """A database migrated once; each test gets a copy (migrations still run for real)."""
    if PG_URL:
        # One template per pytest-xdist worker (gw0, gw1, …); the SQLite one lies in the
        # worker's own temporary folder already.
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        template = f"vigia_template_{worker}" if worker else "vigia_template"
        with _pg_admin() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {template} WITH (FORCE)"))
            conn.execute(text(f"CREATE DATABASE {template}"))
        upgrade(_pg_database(template))
        db_session.engine_for.cache_clear()
        return template
    folder = tmp_path_factory.mktemp("template")
    upgrade(f"sqlite:///{folder / 'vigia.db'}")
    return folder / "vigia.db"


def _pg_database(name: str) -> str:
    assert PG_URL is not None
    return PG_URL.rsplit("/", 1)[0] + "/" + name


@contextmanager
def _pg_admin() -> Iterator[Connection]:
    engine = create_engine(
        PG_URL.replace("postgresql://", "postgresql+psycopg://"),  # type: ignore[union-attr]
        isolation_level="AUTOCOMMIT",
    )
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


def _reset_caches() -> None:
    get_settings.cache_clear()
    db_session.engine_for.cache_clear()
    db_session.writer_engine_for.cache_clear()
    auth.get_key_cache.cache_clear()
    revocation.get_revocations.cache_clear()
    throttle.get_failure_store.cache_clear()


@pytest.fixture(autouse=True)
def data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _migrated_template: Path
) -> Iterator[Path]:
    """A fresh data directory and database for every test."""
    folder = tmp_path / "data"
    folder.mkdir()
    database = None
    if isinstance(_migrated_template, str):
        database = f"t_{uuid.uuid4().hex[:12]}"
        with _pg_admin() as conn:
            conn.execute(
                text(f"CREATE DATABASE {database} TEMPLATE {_migrated_template} STRATEGY FILE_COPY")
            )
        monkeypatch.setenv("VIGIA_DATABASE_URL", _pg_database(database))
    else:
        shutil.copy(_migrated_template, folder / "vigia.db")
        monkeypatch.delenv("VIGIA_DATABASE_URL", raising=False)
    monkeypatch.setenv("VIGIA_DATA_DIR", str(folder))
    monkeypatch.setenv("VIGIA_ADMIN_TOKEN", ADMIN_TOKEN)
    monkeypatch.delenv("VIGIA_REDIS_URL", raising=False)
    _reset_caches()
    yield folder
    for engine in list(_engines()):
        engine.dispose()  # type: ignore[attr-defined]
    _reset_caches()
    if database is not None:
        with _pg_admin() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)"))


def _engines() -> Iterator[object]:
    try:
        yield db_session.get_engine()
        yield db_session.get_writer_engine()
    except Exception:  # pragma: no cover - nothing to dispose
        return


@pytest.fixture
def client() -> Iterator[TestClient]:
    """The app driven in-process through its ASGI interface."""
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture
def admin_headers() -> dict[str, str]:
    return {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@dataclass
class Tenant:
    """A workspace with one published agent and keys for both environments."""

    workspace_id: str
    workspace_name: str
    agent_id: str
    agent_slug: str
    production_key: str
    draft_key: str


def make_tenant(
    name: str = "acme",
    slug: str = "asistente",
    instructions: str = (
        "Sos un asistente de seguros. Atendemos de lunes a viernes de 9 a 18 horas."
    ),
    scopes: list[str] | None = None,
    rpm: int | None = None,
    kind: str = "internal",
) -> Tenant:
    """Creates a tenant through the real services and migrations."""
    with db_session.session_scope() as session:
        workspace = create_workspace(session, name)
        agent = create_agent(
            session,
            workspace,
            AgentCreate(slug=slug, instructions=instructions, kind=kind),
        )
        if kind != "external":
            publish(session, agent)
        scopes = scopes or ["chat", "decide", "guardrails:review"]
        production = create_key(session, workspace, scopes=scopes, rpm=rpm)
        draft = create_key(session, workspace, env="draft", scopes=scopes, rpm=rpm)
        return Tenant(
            workspace.id, workspace.name, agent.id, agent.slug, production.secret, draft.secret
        )


@pytest.fixture
def tenant() -> Tenant:
    return make_tenant()


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A real redis-server on a free loopback port (scripts/test installs it)."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is required (scripts/test installs it)"
    port = free_port()
    folder = tempfile.mkdtemp()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    for _ in range(100):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)
    shutil.rmtree(folder, ignore_errors=True)


class _QuickServer(uvicorn.Server):
    """uvicorn's server with its fixed waits cut from 100 ms to 5 ms: it looks for
    ``should_exit`` that often, and at shutdown waits for its connections and tasks in such
    steps instead of first pausing 100 ms. The suite starts and stops about two thousand
    servers, and those waits were idle time."""

    async def main_loop(self) -> None:
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + 1) % 864000
            await asyncio.sleep(0.005)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        deadline = time.monotonic() + (self.config.timeout_graceful_shutdown or 10)
        while (self.server_state.connections or self.server_state.tasks) and (
            time.monotonic() < deadline
        ):
            await asyncio.sleep(0.005)
        for task in self.server_state.tasks:
            task.cancel(msg="the test server stopped")
        for server in self.servers:
            await server.wait_closed()
        await self.lifespan.shutdown()


@contextmanager
def serve_in_thread(asgi_app: object, **options: Any) -> Iterator[str]:
    """Serves ``asgi_app`` with uvicorn (``options`` for its Config) on a free loopback port;
    yields its base URL. The port is bound here and the socket handed to uvicorn: a port
    only probed free could be taken by another xdist worker before uvicorn binds it."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = int(listener.getsockname()[1])
    options = {"log_level": "warning", **options}
    config = uvicorn.Config(asgi_app, host="127.0.0.1", port=port, **options)  # type: ignore[arg-type]
    server = _QuickServer(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            listener.close()
            raise RuntimeError("server did not start")
        time.sleep(0.005)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


@pytest.fixture
def live_server() -> Iterator[str]:
    """The Vigia app served by uvicorn on a free loopback port; yields its base URL."""
    with serve_in_thread(create_app()) as url:
        yield url


@pytest.fixture
def mock_upstream() -> Iterator[str]:
    """A local OpenAI-compatible upstream; yields its ``/v1`` base URL."""
    with serve_in_thread(create_mock()) as url:
        yield url + "/v1"


@pytest.fixture
def one_slot(client: TestClient) -> Iterator[admission.WriteGate]:
    """Write admission of one slot and no queue on the client's app; the test holds that
    slot."""
    gate = admission.WriteGate(1, 0, get_settings().write_wait_s)
    assert isinstance(client.app, FastAPI)
    client.app.state.write_gate = gate
    asyncio.run(gate.acquire())
    yield gate
    gate.release()
