"""Fixtures of the worlds tests: the payroll world indexed, users, logged-in clients.

Worlds belong to workspaces: the test worlds are workspace ``analysts``' (``team``), which
also owns world ``v1`` (the default version, not indexed: knowledge-off chats use it), and
every user ``make_user`` creates gets a role there unless told otherwise."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vigia.db.session import session_scope
from vigia.users.roles import grant
from vigia.users.service import create_user
from vigia.workspaces.service import create_workspace
from vigia.worlds import embedding
from vigia.worlds.catalog import add_world
from vigia.worlds.ingest.indexer import IndexReport, index_world

PAYROLL = Path(__file__).parent / "payroll"
CICS = Path(__file__).parent / "cics"
PASSWORD = "correct horse battery"
TEAM = "analysts"


@pytest.fixture(scope="session", autouse=True)
def _embed_each_text_once() -> None:
    """Tests index the same worlds again and again: their passages are embedded once."""
    embedding.use_memory_cache()


@pytest.fixture
def team() -> str:
    """The id of workspace ``analysts``, owner of the test worlds and of world ``v1``."""
    with session_scope() as session:
        workspace = create_workspace(session, TEAM)
        add_world(session, "v1", PAYROLL, workspace.id)
        return workspace.id


@pytest.fixture
def payroll(team: str) -> IndexReport:
    """World ``payroll-2024``: the payroll test world, registered and indexed."""
    with session_scope() as session:
        world = add_world(session, "payroll-2024", PAYROLL, team)
        return index_world(session, world)


@pytest.fixture
def loans(team: str) -> IndexReport:
    """World ``loans``: the small CICS/DB2 test world, registered and indexed."""
    with session_scope() as session:
        return index_world(session, add_world(session, "loans", CICS, team))


MakeUser = Callable[..., str]


@pytest.fixture
def make_user(team: str) -> MakeUser:
    """Creates a user; ``role`` (``viewer`` unless given; None: none) in ``team``."""

    def make(name: str, role: str | None = "viewer") -> str:
        with session_scope() as session:
            user = create_user(session, name, PASSWORD)
            if role is not None:
                grant(session, user.id, team, role)
            return user.id

    return make


def log_in(client: TestClient, name: str) -> TestClient:
    response = client.post("/auth/login", json={"username": name, "password": PASSWORD})
    assert response.status_code == 200, response.text
    return client


@pytest.fixture
def alice(client: TestClient, make_user: MakeUser) -> TestClient:
    """A client logged in as alice."""
    make_user("alice")
    return log_in(client, "alice")


@pytest.fixture
def bob(alice: TestClient, make_user: MakeUser) -> TestClient:
    """A second client (same app) logged in as bob."""
    make_user("bob")
    other = TestClient(alice.app)
    return log_in(other, "bob")
