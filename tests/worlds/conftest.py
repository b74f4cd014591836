"""Fixtures of the worlds tests: the payroll world indexed, users, logged-in clients."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigia.db.session import session_scope
from vigia.users.service import create_user
from vigia.worlds import embedding
from vigia.worlds.catalog import add_world
from vigia.worlds.indexer import IndexReport, index_world

PAYROLL = Path(__file__).parent / "payroll"
CICS = Path(__file__).parent / "cics"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="session", autouse=True)
def _embed_each_text_once() -> None:
    """Tests index the same worlds again and again: their passages are embedded once."""
    embedding.use_memory_cache()


@pytest.fixture
def payroll() -> IndexReport:
    """World ``payroll-2024``: the payroll test world, registered and indexed."""
    with session_scope() as session:
        world = add_world(session, "payroll-2024", PAYROLL)
        return index_world(session, world)


@pytest.fixture
def loans() -> IndexReport:
    """World ``loans``: the small CICS/DB2 test world, registered and indexed."""
    with session_scope() as session:
        return index_world(session, add_world(session, "loans", CICS))


@pytest.fixture
def make_user() -> Callable[[str], str]:
    def make(name: str) -> str:
        with session_scope() as session:
            return create_user(session, name, PASSWORD).id

    return make


def log_in(client: TestClient, name: str) -> TestClient:
    response = client.post("/auth/login", json={"username": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    return client


@pytest.fixture
def alice(client: TestClient, make_user: Callable[[str], str]) -> TestClient:
    """A client logged in as alice."""
    make_user("alice")
    return log_in(client, "alice")


@pytest.fixture
def bob(alice: TestClient, make_user: Callable[[str], str]) -> TestClient:
    """A second client (same app) logged in as bob."""
    make_user("bob")
    other = TestClient(alice.app)
    return log_in(other, "bob")
