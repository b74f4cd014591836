"""Published versions pin their knowledge: documents added, replaced or removed in a base
reach production keys only with a publish, draft keys at once; a rollback restores what the
restored version read. All through HTTP (admin API and /v1/chat/completions) with the
embedded model, on SQLite and, with VIGIA_TEST_DATABASE_URL, PostgreSQL."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from tests.conftest import Tenant
from tests.errors import assert_error
from tests.knowledge.helpers import stored_counts
from vigia.agents.schemas import AgentPatch, Replies
from vigia.agents.service import get_agent, publish, update_draft
from vigia.cli import app as cli_app
from vigia.db.migrate import alembic_config
from vigia.db.session import make_engine, session_scope
from vigia.knowledge import service
from vigia.knowledge.embedding import embedder_for
from vigia.knowledge.models import (
    KnowledgeBase,
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeRevision,
)
from vigia.knowledge.retrieval import search_knowledge
from vigia.knowledge.versions import collection_of
from vigia.search import Entry, index_for
from vigia.workspaces.service import find_workspace

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

HOURS_9 = "Horarios de la tienda. La tienda abre a las 9 de la mañana de lunes a viernes."
HOURS_10 = "Horarios de la tienda. La tienda abre a las 10 de la mañana de lunes a viernes."
SHIPPING = "Envíos a domicilio. Los envíos a domicilio llegan en 48 horas a todo el país."
ASK_HOURS = "¿A qué hora abre la tienda?"
ASK_SHIPPING = "¿En cuánto tiempo llegan los envíos a domicilio?"


class Admin:
    """The admin API calls of these tests, for one tenant."""

    def __init__(self, client: TestClient, headers: dict[str, str], tenant: Tenant) -> None:
        self.client, self.headers, self.tenant = client, headers, tenant
        self.workspace = f"/admin/workspaces/{tenant.workspace_name}"
        self.agent = f"{self.workspace}/agents/{tenant.agent_slug}"
        created = client.post(
            f"{self.workspace}/knowledge-bases", json={"name": "Tienda"}, headers=headers
        )
        assert created.status_code == 201, created.text
        self.kb = f"{self.workspace}/knowledge-bases/{created.json()['id']}"
        attached = client.patch(
            self.agent, json={"knowledge_bases": [created.json()["id"]]}, headers=headers
        )
        assert attached.status_code == 200, attached.text

    def upload(self, name: str, text: str) -> str:
        response = self.client.post(
            f"{self.kb}/documents",
            files={"file": (name, text.encode(), "text/plain")},
            headers=self.headers,
        )
        assert response.status_code in (200, 201), response.text
        return str(response.json()["id"])

    def remove(self, document_id: str) -> None:
        response = self.client.delete(f"{self.kb}/documents/{document_id}", headers=self.headers)
        assert response.status_code == 204, response.text

    def publish(self) -> int:
        response = self.client.post(f"{self.agent}/publish", headers=self.headers)
        assert response.status_code == 200, response.text
        return int(response.json()["version"])

    def rollback(self, version: Any) -> Any:
        return self.client.post(
            f"{self.agent}/rollback", json={"version": version}, headers=self.headers
        )

    def changes(self) -> list[tuple[str, str]]:
        response = self.client.get(f"{self.agent}/knowledge-changes", headers=self.headers)
        assert response.status_code == 200, response.text
        return [(c["document"], c["change"]) for c in response.json()["changes"]]

    def answer(self, key: str, question: str) -> tuple[str, list[str]]:
        """The reply's text and the documents it cites."""
        response = self.client.post(
            "/v1/chat/completions",
            headers={"Authorization": f"Bearer {key}"},
            json={
                "model": self.tenant.agent_slug,
                "messages": [{"role": "user", "content": question}],
            },
        )
        assert response.status_code == 200, response.text
        body = response.json()
        cited = [c["document"] for c in body["sherlock"]["citations"]]
        return body["choices"][0]["message"]["content"], cited


def _admin(client: TestClient, admin_headers: dict[str, str], tenant: Tenant) -> Admin:
    return Admin(client, admin_headers, tenant)


def test_a_document_added_reaches_production_only_when_published(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    admin = _admin(client, admin_headers, tenant)
    admin.upload("horarios.txt", HOURS_9)
    admin.publish()
    assert admin.changes() == []
    admin.upload("envios.txt", SHIPPING)
    assert admin.changes() == [("envios.txt", "added")]
    text, cited = admin.answer(tenant.production_key, ASK_SHIPPING)
    assert "envios.txt" not in cited and "48 horas" not in text
    text, cited = admin.answer(tenant.draft_key, ASK_SHIPPING)
    assert cited == ["envios.txt"] and "48 horas" in text
    admin.publish()
    text, cited = admin.answer(tenant.production_key, ASK_SHIPPING)
    assert cited == ["envios.txt"] and "48 horas" in text
    assert admin.changes() == []


def test_a_replaced_document_changes_production_at_publish_and_back_at_rollback(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    admin = _admin(client, admin_headers, tenant)
    admin.upload("horarios.txt", HOURS_9)
    first = admin.publish()
    admin.upload("horarios.txt", HOURS_10)
    assert admin.changes() == [("horarios.txt", "replaced")]
    assert "a las 9" in admin.answer(tenant.production_key, ASK_HOURS)[0]
    assert "a las 10" in admin.answer(tenant.draft_key, ASK_HOURS)[0]
    admin.publish()
    assert "a las 10" in admin.answer(tenant.production_key, ASK_HOURS)[0]
    restored = admin.rollback(first)
    assert restored.status_code == 200, restored.text
    assert restored.json() == {"slug": tenant.agent_slug, "version": first + 2, "restored": first}
    assert "a las 9" in admin.answer(tenant.production_key, ASK_HOURS)[0]
    # the draft keeps its own knowledge, and publishing it would bring the new text back
    assert "a las 10" in admin.answer(tenant.draft_key, ASK_HOURS)[0]
    assert admin.changes() == [("horarios.txt", "replaced")]


def test_a_removed_document_answers_production_until_published(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    admin = _admin(client, admin_headers, tenant)
    admin.upload("horarios.txt", HOURS_9)
    gone = admin.upload("envios.txt", SHIPPING)
    with_shipping = admin.publish()
    admin.remove(gone)
    assert admin.changes() == [("envios.txt", "removed")]
    listed = client.get(f"{admin.kb}/documents", headers=admin_headers).json()["documents"]
    assert [d["name"] for d in listed] == ["horarios.txt"]
    assert client.get(f"{admin.kb}/documents/{gone}", headers=admin_headers).status_code == 404
    assert admin.answer(tenant.production_key, ASK_SHIPPING)[1] == ["envios.txt"]
    assert admin.answer(tenant.draft_key, ASK_SHIPPING)[0] == Replies().no_answer
    admin.publish()
    assert admin.answer(tenant.production_key, ASK_SHIPPING)[0] == Replies().no_answer
    assert admin.rollback(with_shipping).status_code == 200
    assert admin.answer(tenant.production_key, ASK_SHIPPING)[1] == ["envios.txt"]


def test_draft_only_revisions_are_not_kept(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    """A revision no published version read leaves nothing behind when replaced."""
    admin = _admin(client, admin_headers, tenant)
    admin.upload("horarios.txt", HOURS_9)
    admin.upload("horarios.txt", HOURS_10)
    assert stored_counts() == {"documents": 1, "chunks": 1, "entries": 1, "fts": 1}
    admin.publish()
    admin.upload("horarios.txt", HOURS_9)
    # the published revision stays for production; the draft's is the new one
    assert stored_counts() == {"documents": 1, "chunks": 2, "entries": 2, "fts": 2}
    assert admin.changes() == [("horarios.txt", "replaced")]


def test_rollback_of_a_bad_version_is_refused_and_changes_nothing(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    admin = _admin(client, admin_headers, tenant)
    published = admin.client.get(admin.agent, headers=admin_headers).json()["published_version"]
    assert_error(admin.rollback(999), 404, f"agent '{tenant.agent_slug}' has no version 999")
    for bad in (0, -1, "1", 2**31, None, 1.5):
        assert admin.rollback(bad).status_code == 422, bad
    extra = client.post(
        f"{admin.agent}/rollback", json={"version": 1, "also": 2}, headers=admin_headers
    )
    assert extra.status_code == 422
    after = admin.client.get(admin.agent, headers=admin_headers).json()["published_version"]
    assert after == published
    other = client.post(
        "/admin/workspaces/nadie/agents/x/rollback", json={"version": 1}, headers=admin_headers
    )
    assert other.status_code == 404


def _legacy_document(session: Session, kb: KnowledgeBase, name: str, text: str) -> None:
    """A document as the migration leaves one: its chunks in the base's shared collection."""
    doc = KnowledgeDocument(
        knowledge_base_id=kb.id, name=name, media_type="text/plain", sha256="0" * 64
    )
    session.add(doc)
    session.flush()
    revision = KnowledgeRevision(
        id=doc.id,
        knowledge_base_id=kb.id,
        document_id=doc.id,
        collection=collection_of(kb.id),
        added_at=EPOCH,
    )
    chunk = KnowledgeChunk(
        document_id=doc.id, knowledge_base_id=kb.id, revision_id=doc.id, seq=0, text=text
    )
    session.add_all([revision, chunk])
    session.flush()
    vector = embedder_for(kb.embedder).passages([text])[0]
    index_for(session).add(session, collection_of(kb.id), [Entry(chunk.id, text, vector)])


def test_a_document_from_before_versioning_stays_pinned_when_removed(tenant: Tenant) -> None:
    """Removing one of several documents that share the base's collection moves its entries
    to a collection of its own: the published version still finds it, the draft does not."""
    with session_scope() as session:
        workspace = find_workspace(session, tenant.workspace_id)
        kb = service.create_knowledge_base(session, workspace, "Antigua")
        _legacy_document(session, kb, "horarios.txt", HOURS_9)
        _legacy_document(session, kb, "envios.txt", SHIPPING)
        agent = get_agent(session, tenant.workspace_id, tenant.agent_slug)
        update_draft(session, agent, AgentPatch(knowledge_bases=[kb.id]))
        version = publish(session, agent)
        moment = version.created_at
    with session_scope() as session:
        kb = service.get_knowledge_base(
            session, find_workspace(session, tenant.workspace_id), kb.id
        )
        shipping = next(d for d in service.list_documents(session, kb) if d.name == "envios.txt")
        service.delete_document(session, kb, shipping)
    with session_scope() as session:
        kb = service.get_knowledge_base(
            session, find_workspace(session, tenant.workspace_id), kb.id
        )
        pinned = search_knowledge(session, [kb], ASK_SHIPPING, 5, "hybrid", at=moment)
        draft = search_knowledge(session, [kb], ASK_SHIPPING, 5, "hybrid")
        assert pinned[0].document == "envios.txt"
        assert {p.document for p in draft} == {"horarios.txt"}
        assert index_for(session).count(session, collection_of(kb.id)) == 1


@contextmanager
def _database_before_versions(tmp_path: Path) -> Iterator[str]:
    """A new database (PostgreSQL when the tests run there, else SQLite) migrated up to what
    ``0019_knowledge_versions`` needs, dropped afterwards: its URL."""
    server = os.environ.get("VIGIA_TEST_DATABASE_URL", "")
    if not server.startswith("postgresql"):
        url = f"sqlite:///{tmp_path / 'before.db'}"
        for before in ("0016_search_postings", "0017_workspace_secrets"):
            command.upgrade(alembic_config(url), before)
        yield url
        return
    server = server.replace("postgresql://", "postgresql+psycopg://")
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    name = f"m_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    try:
        url = server.rsplit("/", 1)[0] + "/" + name
        for before in ("0016_search_postings", "0017_workspace_secrets"):
            command.upgrade(alembic_config(url), before)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


def test_the_migration_makes_every_document_a_revision_every_version_reads(
    tmp_path: Path,
) -> None:
    with _database_before_versions(tmp_path) as url:
        _migrate_a_document(url)


def _migrate_a_document(url: str) -> None:
    engine = make_engine(url)
    with Session(engine) as session:
        now = "2025-01-01 00:00:00.000000"
        rows = {"w": "w1", "kb": "kb1", "d": "d1", "c": "c1", "now": now, "text": HOURS_9}
        for statement in (
            "INSERT INTO workspaces (id, name, budget_action, decide_quota_tokens, created_at)"
            " VALUES (:w, 'vieja', 'block', 0, :now)",
            "INSERT INTO knowledge_bases (id, workspace_id, name, description, embedder,"
            " created_at, updated_at) VALUES (:kb, :w, 'Tienda', '', 'use', :now, :now)",
            "INSERT INTO knowledge_documents (id, knowledge_base_id, name, media_type,"
            " size_bytes, sha256, chunk_count, created_at, updated_at)"
            " VALUES (:d, :kb, 'horarios.txt', 'text/plain', 1, '0', 1, :now, :now)",
            "INSERT INTO knowledge_chunks (id, document_id, knowledge_base_id, seq, text)"
            " VALUES (:c, :d, :kb, 0, :text)",
        ):
            session.execute(text(statement), rows)
        vector = np.ones(512, dtype=np.float32)
        index_for(session).add(session, "kb:kb1", [Entry("c1", HOURS_9, vector)])
        session.commit()
    command.upgrade(alembic_config(url), "heads")
    with Session(engine) as session:
        kb = session.get(KnowledgeBase, "kb1")
        assert kb is not None
        (doc,) = service.list_documents(session, kb)
        assert [c.id for c in service.document_chunks(session, doc)] == ["c1"]
        long_ago = datetime(2000, 1, 1, tzinfo=UTC)
        found = search_knowledge(session, [kb], ASK_HOURS, 5, "lexical", at=long_ago)
        assert [p.chunk_id for p in found] == ["c1"]
    engine.dispose()


def test_the_cli_rolls_a_version_back(tenant: Tenant) -> None:
    args = ["agent", "rollback", tenant.agent_slug, "--workspace", tenant.workspace_name]
    done = CliRunner().invoke(cli_app, [*args, "--version", "1", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output) == {"slug": tenant.agent_slug, "version": 2, "restored": 1}
    missing = CliRunner().invoke(cli_app, [*args, "--version", "7", "--json"])
    assert missing.exit_code == 1
    assert json.loads(missing.output)["error"] == "not_found"
    assert CliRunner().invoke(cli_app, [*args, "--version", "0", "--json"]).exit_code == 2
