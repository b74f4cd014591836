"""Uploads over the cost budget: 202, indexed by the one ingest worker, ready or failed,
bounded queue, restart, cancel (docs/knowledge.md "Background indexing").

The budgets are lowered here (``SYNC_BUDGET_S``/``PARSE_BUDGET_S``) so small documents take
the background path in milliseconds. Where a test must catch the worker mid-way it runs a
gated embedder: the real USE encoder behind an event the test opens (the vectors are real,
only their timing is held).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.conftest import Tenant
from tests.knowledge.helpers import stored_counts
from vigia.app import create_app
from vigia.db.base import utcnow
from vigia.db.session import session_scope
from vigia.embeddings import Vectors
from vigia.knowledge import ingest, preparing, service, staging
from vigia.knowledge.embedding import embedder_for
from vigia.knowledge.ingest_worker import IngestWorker
from vigia.knowledge.models import KnowledgeRevision, KnowledgeUpload
from vigia.workspaces.service import find_workspace

MD = "text/markdown"
NOTES = "# Taller\n\nEl taller oficial de Rosario atiende los sábados de 9 a 13 horas.\n"
NEW_NOTES = "# Taller\n\nEl taller oficial ahora atiende los domingos con turno previo.\n"


class GatedEmbedder:
    """The real passage encoder, held until ``open`` is set; ``entered`` tells the test the
    worker is embedding."""

    def __init__(self) -> None:
        self.real = embedder_for("use")
        self.dim = self.real.dim
        self.entered = threading.Event()
        self.open = threading.Event()

    def passages(self, texts: list[str]) -> Vectors:
        self.entered.set()
        assert self.open.wait(30), "the test never opened the gate"
        return self.real.passages(texts)


@pytest.fixture
def background(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every parsed upload is over the budget: it goes to the worker."""
    monkeypatch.setattr(ingest, "SYNC_BUDGET_S", 0.0)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch, background: None) -> Iterator[GatedEmbedder]:
    gated = GatedEmbedder()
    monkeypatch.setattr(service, "embedder_for", lambda name: gated)
    try:
        yield gated
    finally:
        gated.open.set()


@pytest.fixture
def kb_url(client: TestClient, admin_headers: dict[str, str], tenant: Tenant) -> Iterator[str]:
    base = f"/admin/workspaces/{tenant.workspace_name}/knowledge-bases"
    response = client.post(base, json={"name": "Talleres"}, headers=admin_headers)
    assert response.status_code == 201, response.text
    yield f"{base}/{response.json()['id']}"
    _idle(client)  # no worker run outlives the test's database


def _worker(client: TestClient) -> IngestWorker:
    worker: IngestWorker = client.app.state.knowledge_ingest  # type: ignore[attr-defined]
    return worker


def _idle(client: TestClient) -> None:
    deadline = time.monotonic() + 60
    while _worker(client).busy():
        assert time.monotonic() < deadline, "the ingest worker never finished"
        time.sleep(0.02)


def _upload(client: TestClient, headers: dict[str, str], kb_url: str, name: str, text: str) -> Any:
    return client.post(
        f"{kb_url}/documents", files={"file": (name, text.encode(), MD)}, headers=headers
    )


def _until(client: TestClient, headers: dict[str, str], url: str, status: str) -> Any:
    deadline = time.monotonic() + 60
    while True:
        body = client.get(url, headers=headers).json()
        if body.get("status") == status:
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.02)


def _snippets(client: TestClient, headers: dict[str, str], kb_url: str, query: str) -> str:
    response = client.post(f"{kb_url}/search", json={"query": query}, headers=headers)
    assert response.status_code == 200, response.text
    return " ".join(p["snippet"] for p in response.json()["passages"])


def _uploads_left() -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(KnowledgeUpload)) or 0


def test_an_upload_within_the_budget_is_indexed_in_the_request(
    client: TestClient, admin_headers: dict[str, str], kb_url: str
) -> None:
    response = _upload(client, admin_headers, kb_url, "taller.md", NOTES)
    assert response.status_code == 201, response.text
    body = response.json()
    assert (body["status"], body["progress"], body["error"]) == ("ready", None, None)
    assert body["chunks"] == 1 and body["replaced"] is False
    assert "Location" not in response.headers
    assert "sábados" in _snippets(client, admin_headers, kb_url, "taller sábados")
    assert _uploads_left() == 0


def test_a_costly_upload_answers_202_then_is_ready_and_searchable(
    client: TestClient, admin_headers: dict[str, str], kb_url: str, background: None
) -> None:
    response = _upload(client, admin_headers, kb_url, "taller.md", NOTES)
    assert response.status_code == 202, response.text
    queued = response.json()
    assert queued["status"] == "indexing" and queued["replaced"] is False
    assert queued["progress"] == {"done": 0, "total": 0}
    location = response.headers["Location"]
    assert location == f"{kb_url}/documents/{queued['id']}"
    ready = _until(client, admin_headers, location, "ready")
    assert ready["chunks"] == 1 and ready["error"] is None and ready["progress"] is None
    assert "sábados" in ready["chunk_list"][0]["text"]
    assert "sábados" in _snippets(client, admin_headers, kb_url, "taller sábados")
    with session_scope() as session:  # one knowledge revision, as an upload in the request
        revisions = session.scalars(select(KnowledgeRevision)).all()
        assert [r.document_id for r in revisions] == [queued["id"]]
    assert _uploads_left() == 0  # the stored bytes are gone once indexed


def test_until_ready_search_reads_what_it_read_before(
    client: TestClient, admin_headers: dict[str, str], kb_url: str, gate: GatedEmbedder
) -> None:
    gate.open.set()  # the first version goes through at once
    first = _upload(client, admin_headers, kb_url, "taller.md", NOTES)
    assert first.status_code == 202
    url = first.headers["Location"]
    _until(client, admin_headers, url, "ready")
    gate.open.clear()
    gate.entered.clear()
    second = _upload(client, admin_headers, kb_url, "taller.md", NEW_NOTES)
    assert second.status_code == 202 and second.json()["replaced"] is True
    assert second.json()["id"] == first.json()["id"]
    assert gate.entered.wait(30)
    indexing = client.get(url, headers=admin_headers).json()
    assert indexing["status"] == "indexing"
    assert indexing["progress"] == {"done": 0, "total": 1}
    assert "sábados" in indexing["chunk_list"][0]["text"]  # the previous revision meanwhile
    found = _snippets(client, admin_headers, kb_url, "taller domingos sábados")
    assert "sábados" in found and "domingos" not in found
    gate.open.set()
    _until(client, admin_headers, url, "ready")
    found = _snippets(client, admin_headers, kb_url, "taller domingos sábados")
    assert "domingos" in found and "sábados" not in found


def test_a_file_that_fails_to_parse_in_the_background_is_failed_with_its_code(
    client: TestClient,
    admin_headers: dict[str, str],
    kb_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ingest, "PARSE_BUDGET_S", 0.0)  # queued before parsing
    response = client.post(
        f"{kb_url}/documents",
        files={"file": ("roto.pdf", b"%PDF-1.4 this is not a pdf at all", "application/pdf")},
        headers=admin_headers,
    )
    assert response.status_code == 202, response.text
    failed = _until(client, admin_headers, response.headers["Location"], "failed")
    assert failed["error"]["code"] == "unreadable_document"
    assert failed["error"]["message"]
    assert failed["chunk_list"] == [] and failed["chunks"] == 0
    listed = client.get(f"{kb_url}/documents", headers=admin_headers).json()["documents"]
    assert [(d["name"], d["status"]) for d in listed] == [("roto.pdf", "failed")]
    assert stored_counts() == {"documents": 1, "chunks": 0, "entries": 0, "fts": 0}
    assert _uploads_left() == 0
    gone = client.delete(response.headers["Location"], headers=admin_headers)
    assert gone.status_code == 204
    assert stored_counts()["documents"] == 0


def test_a_full_queue_answers_503_with_retry_after_and_stores_nothing(
    client: TestClient, admin_headers: dict[str, str], kb_url: str, gate: GatedEmbedder
) -> None:
    _worker(client).limit = 1
    first = _upload(client, admin_headers, kb_url, "taller.md", NOTES)
    assert first.status_code == 202
    assert gate.entered.wait(30)
    refused = _upload(client, admin_headers, kb_url, "otro.md", NEW_NOTES)
    assert refused.status_code == 503
    assert int(refused.headers["Retry-After"]) >= 1
    assert set(refused.json()) == {"detail"}  # the admin surface's error shape
    assert "retry later" in refused.json()["detail"]
    names = [
        d["name"]
        for d in client.get(f"{kb_url}/documents", headers=admin_headers).json()["documents"]
    ]
    assert names == ["taller.md"]
    assert _uploads_left() == 1
    gate.open.set()
    _until(client, admin_headers, first.headers["Location"], "ready")
    _idle(client)
    assert _upload(client, admin_headers, kb_url, "otro.md", NEW_NOTES).status_code == 202


def test_deleting_an_indexing_document_cancels_it(
    client: TestClient, admin_headers: dict[str, str], kb_url: str, gate: GatedEmbedder
) -> None:
    response = _upload(client, admin_headers, kb_url, "taller.md", NOTES)
    assert response.status_code == 202
    assert gate.entered.wait(30)  # the worker is embedding it
    assert client.delete(response.headers["Location"], headers=admin_headers).status_code == 204
    gate.open.set()
    _idle(client)
    assert client.get(response.headers["Location"], headers=admin_headers).status_code == 404
    assert stored_counts() == {"documents": 0, "chunks": 0, "entries": 0, "fts": 0}
    assert _uploads_left() == 0
    assert "sábados" not in _snippets(client, admin_headers, kb_url, "taller sábados")


def test_a_running_upload_keeps_its_claim_fresh(
    client: TestClient, admin_headers: dict[str, str], kb_url: str, gate: GatedEmbedder
) -> None:
    worker = _worker(client)
    worker.stale_s = 0.4  # the run refreshes its claim every 0.1 s
    response = _upload(client, admin_headers, kb_url, "taller.md", NOTES)
    assert response.status_code == 202
    assert gate.entered.wait(30)  # the run is busy: it reports no progress meanwhile
    with session_scope() as session:
        first = session.scalars(select(KnowledgeUpload.claimed_at)).one()
    time.sleep(0.6)
    with session_scope() as session:
        later = session.scalars(select(KnowledgeUpload.claimed_at)).one()
    assert first is not None and later is not None and later > first
    assert worker.resume() == 0  # so no worker takes it over
    gate.open.set()
    _until(client, admin_headers, response.headers["Location"], "ready")


def _left_by_a_stopped_server(tenant: Tenant, claimed_ago: timedelta | None) -> str:
    """An upload queued as a server that stopped mid-way left it: the document
    ``indexing``, its bytes stored, claimed ``claimed_ago`` (None: never claimed)."""
    with session_scope() as session:
        workspace = find_workspace(session, tenant.workspace_name)
        kb = service.create_knowledge_base(session, workspace, "Talleres")
        upload = preparing.check_upload("taller.md", NOTES.encode(), MD, None)
        queued = ingest.queue(session, kb, upload)
        if claimed_ago is not None:
            row = session.get(KnowledgeUpload, queued.upload_id)
            assert row is not None
            row.claim, row.claimed_at = "dead-server-run", utcnow() - claimed_ago
        base = f"/admin/workspaces/{tenant.workspace_name}/knowledge-bases/{kb.id}"
        return f"{base}/documents/{queued.document.id}"


@pytest.mark.parametrize("claimed_ago", [None, timedelta(hours=1)], ids=["unclaimed", "stale"])
def test_a_restarted_server_picks_up_an_upload_left_indexing(
    admin_headers: dict[str, str], tenant: Tenant, claimed_ago: timedelta | None
) -> None:
    url = _left_by_a_stopped_server(tenant, claimed_ago)
    with TestClient(create_app()) as restarted:  # its startup resumes the upload
        ready = _until(restarted, admin_headers, url, "ready")
        assert ready["chunks"] == 1
        _idle(restarted)
    assert _uploads_left() == 0


def test_an_upload_a_live_server_holds_is_taken_over_only_once_stale(
    admin_headers: dict[str, str], tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _left_by_a_stopped_server(tenant, timedelta(seconds=0))
    with TestClient(create_app()) as other:
        worker = _worker(other)
        assert worker.resume() == 0  # its claim is fresh: another server may be on it
        assert other.get(url, headers=admin_headers).json()["status"] == "indexing"
        worker.stale_s = 0.2  # the claim's run never reports again: it is taken over
        worker.resume()
        _until(other, admin_headers, url, "ready")
        _idle(other)


def _paragraphs(n: int) -> bytes:
    """``n`` paragraphs of ~690 characters: one chunk each."""
    return "\n\n".join(f"Párrafo {i}: " + "cobertura del taller " * 33 for i in range(n)).encode()


def test_the_estimate_sends_uploads_past_the_budget_to_the_worker() -> None:
    small = preparing.check_upload("a.md", _paragraphs(100), None, None)
    prepared = ingest.plan("use", small)
    assert prepared is not None and len(prepared.chunks) == 100  # ~70,000 characters: ~3 s
    big = preparing.check_upload("a.md", _paragraphs(300), None, None)
    assert ingest.plan("use", big) is None  # ~210,000 characters: over 8 s
    assert ingest.plan("e5", small) is None  # e5 costs ~60 times as much per character
    pdf = preparing.check_upload("a.pdf", b"%PDF" + b" " * (1024 * 1024 - 4), None, None)
    assert ingest.parse_cost_s(pdf) == ingest.PARSE_S_PER_MIB["pdf"]
    assert ingest.plan("use", pdf) is None  # 15 s to parse: queued before parsing


class HeldBatches:
    """``staging.add_chunks`` that holds the worker before its second batch (the first one
    committed) until ``open`` is set."""

    def __init__(self) -> None:
        self.real = staging.add_chunks
        self.calls = 0
        self.entered = threading.Event()
        self.open = threading.Event()

    def __call__(self, *args: Any) -> None:
        self.calls += 1
        if self.calls == 2:
            self.entered.set()
            assert self.open.wait(30), "the test never opened the gate"
        self.real(*args)


def test_chunks_are_written_in_batches_and_the_document_appears_at_once(
    client: TestClient,
    admin_headers: dict[str, str],
    kb_url: str,
    background: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(staging, "WRITE_BATCH", 2)
    held = HeldBatches()
    monkeypatch.setattr(staging, "add_chunks", held)
    response = client.post(
        f"{kb_url}/documents",
        files={"file": ("largo.md", _paragraphs(5), MD)},
        headers=admin_headers,
    )
    assert response.status_code == 202
    try:
        assert held.entered.wait(30)
        staged = client.get(response.headers["Location"], headers=admin_headers).json()
        assert staged["status"] == "indexing" and staged["chunk_list"] == []
        assert stored_counts()["chunks"] == 2  # one batch written, in no revision yet
        assert _snippets(client, admin_headers, kb_url, "cobertura del taller") == ""
    finally:
        held.open.set()
    ready = _until(client, admin_headers, response.headers["Location"], "ready")
    assert [c["seq"] for c in ready["chunk_list"]] == [0, 1, 2, 3, 4]
    assert stored_counts() == {"documents": 1, "chunks": 5, "entries": 5, "fts": 5}
    assert "Párrafo" in _snippets(client, admin_headers, kb_url, "cobertura del taller")


def _staged_by_a_run(tenant: Tenant, token: str) -> str:
    """An upload claimed by the run ``token``, which staged two chunks and stopped."""
    url = _left_by_a_stopped_server(tenant, None)
    document_id = url.rsplit("/", 1)[1]
    prepared = preparing.prepare(preparing.check_upload("a.md", _paragraphs(2), MD, None))
    vectors = service.embed("use", prepared, None)
    with session_scope() as session:
        row = session.scalars(select(KnowledgeUpload)).one()
        kb_id = url.split("/knowledge-bases/")[1].split("/")[0]
        assert ingest.claim(row.id, token, ingest.stale_before(120))
        staging.add_chunks(
            session, kb_id, document_id, token, prepared, prepared.texts(), vectors, range(2)
        )
    return url


def test_a_takeover_drops_what_the_stopped_run_staged(
    admin_headers: dict[str, str], tenant: Tenant
) -> None:
    url = _staged_by_a_run(tenant, "stopped-run")
    with session_scope() as session:
        row = session.scalars(select(KnowledgeUpload)).one()
        row.claimed_at = utcnow() - timedelta(hours=1)
    with TestClient(create_app()) as restarted:
        ready = _until(restarted, admin_headers, url, "ready")
        _idle(restarted)
    assert ready["chunks"] == 1
    assert stored_counts() == {"documents": 1, "chunks": 1, "entries": 1, "fts": 1}


def test_deleting_drops_what_a_run_staged(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    url = _staged_by_a_run(tenant, "running-run")
    assert stored_counts()["chunks"] == 2
    assert client.delete(url, headers=admin_headers).status_code == 204
    assert stored_counts() == {"documents": 0, "chunks": 0, "entries": 0, "fts": 0}
    assert _uploads_left() == 0
