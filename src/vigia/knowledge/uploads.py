"""An upload made by a request (the admin API, the console): indexed in the request when it
fits the cost budget, else queued for the app's ingest worker (``vigia.knowledge.ingest``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy.orm import Session

from vigia.knowledge import ingest, preparing, service
from vigia.knowledge.ingest_worker import IngestWorker
from vigia.knowledge.models import KnowledgeBase, KnowledgeDocument


@dataclass(frozen=True)
class Added:
    """The uploaded document; ``queued`` when the worker indexes it (status ``indexing``)."""

    document: KnowledgeDocument
    replaced: bool
    queued: bool


def add_upload(
    session: Session,
    kb: KnowledgeBase,
    worker: IngestWorker,
    name: str,
    data: bytes,
    media_type: str | None = None,
    url: str | None = None,
) -> Added:
    """Adds a document as ``service.add_document`` does when it fits the budget; otherwise
    stores it, commits ``session`` (the worker reads the upload from the database) and
    queues it: 503 with Retry-After when the worker's queue is full."""
    started = time.perf_counter()
    upload = preparing.check_upload(name, data, media_type, url)
    prepared = ingest.plan(kb.embedder, upload)
    if prepared is not None:
        vectors = service.embed(kb.embedder, prepared, None)
        done = service.write_document(session, kb, upload, prepared, vectors, started)
        return Added(done.document, done.replaced, queued=False)
    with worker.reservation():
        queued = ingest.queue(session, kb, upload)
        session.commit()
        worker.submit(queued.upload_id)
    return Added(queued.document, queued.replaced, queued=True)
