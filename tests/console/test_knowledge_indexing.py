"""The console's knowledge page with documents indexed in the background: an upload over the
cost budget is queued like the admin API's, and the list shows ``indexing`` and ``failed``
documents with their localised labels (docs/knowledge.md "Background indexing")."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from vigia.db.session import session_scope
from vigia.knowledge import ingest
from vigia.knowledge.models import KnowledgeBase, KnowledgeDocument


def _document_status() -> str:
    with session_scope() as session:
        return session.scalars(select(KnowledgeDocument.status)).one()


def test_a_costly_console_upload_is_indexed_in_the_background(
    client: TestClient, tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest, "PARSE_BUDGET_S", 0.0)  # queued unparsed: fails in the worker
    make_user("ana", tenant.workspace_id, "owner")
    base, token = f"/console/w/{tenant.workspace_id}", log_in(client, "ana")
    client.post(f"{base}/knowledge", data={"csrf": token, "name": "manual"})
    with session_scope() as session:
        kb_id = session.scalars(select(KnowledgeBase.id)).one()
    queued = client.post(
        f"{base}/knowledge/{kb_id}/documents",
        data={"csrf": token},
        files={"file": ("roto.pdf", b"%PDF-1.4 not really a pdf", "application/pdf")},
        headers={"HX-Request": "true"},
    )
    assert queued.status_code == 200, queued.text
    assert "roto.pdf" in queued.text and 'data-role="document-status"' in queued.text
    deadline = time.monotonic() + 30
    while _document_status() == "indexing":
        assert time.monotonic() < deadline, "the ingest worker never finished"
        time.sleep(0.02)
    page = client.get(f"{base}/knowledge/{kb_id}")
    assert "falló la indexación" in page.text
