"""Background indexing: what an upload costs, queuing the costly ones, and indexing a queued
one (what the ingest worker, ``vigia.knowledge.ingest_worker``, runs).

An upload is estimated before any embedding: parsing by its size and kind, embedding by
the characters of its chunks and the base's embedder (constants measured on the reference
2-core machine, docs/knowledge.md "Background indexing"). Within ``SYNC_BUDGET_S`` it is
indexed in the request as always; over it, its bytes are stored with the document marked
``indexing`` and the worker indexes it. A file whose parsing alone is over
``PARSE_BUDGET_S`` is queued unparsed, so a bad one becomes a ``failed`` document with the
error's code instead of a 4xx.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, delete, or_, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from vigia.db.base import utcnow
from vigia.db.session import session_scope, write_scope
from vigia.embeddings import Vectors
from vigia.errors import VigiaError
from vigia.knowledge import preparing, service, staging
from vigia.knowledge.models import KnowledgeBase, KnowledgeDocument, KnowledgeUpload
from vigia.knowledge.parsers import check_size_caps

log = logging.getLogger(__name__)

SYNC_BUDGET_S = 8.0
PARSE_BUDGET_S = 3.0
# Seconds per MiB to parse and chunk, by kind (DOCX: per MiB of its body's XML), and
# per 1,000 characters of chunks to embed, by embedder: measured at load 6-10 on the
# 2-core reference machine (docs/knowledge.md), rounded up.
PARSE_S_PER_MIB = {"pdf": 15.0, "docx": 9.0, "html": 0.5, "markdown": 0.5, "text": 0.3}
EMBED_S_PER_1000_CHARS = {"use": 0.05, "e5": 2.4}
MEDIA_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "html": "text/html",
    "markdown": "text/markdown",
    "text": "text/plain",
}
PROGRESS_EVERY_S = 1.0
ERROR_CHARS = 500


class Cancelled(Exception):
    """The upload was deleted or replaced while it was being indexed."""


def _parsed_bytes(upload: preparing.Checked) -> int:
    """What the parser reads: the file, or for a DOCX the size its body
    (``word/document.xml``) declares (a file that is no ZIP, or lies, is refused by the
    parser itself)."""
    if upload.kind != "docx":
        return len(upload.data)
    try:
        with zipfile.ZipFile(io.BytesIO(upload.data)) as archive:
            return archive.getinfo("word/document.xml").file_size
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        return len(upload.data)


def parse_cost_s(upload: preparing.Checked) -> float:
    """Estimated seconds to parse and chunk the upload."""
    return _parsed_bytes(upload) / (1024 * 1024) * PARSE_S_PER_MIB[upload.kind]


def embed_cost_s(embedder: str, prepared: preparing.Prepared) -> float:
    """Estimated seconds to embed the upload's chunks with the base's embedder."""
    characters = sum(len(text) for text in prepared.texts())
    return characters / 1000 * EMBED_S_PER_1000_CHARS.get(embedder, EMBED_S_PER_1000_CHARS["e5"])


def plan(embedder: str, upload: preparing.Checked) -> preparing.Prepared | None:
    """The parsed upload when parsing and embedding it fit in ``SYNC_BUDGET_S``; None when
    it goes to the worker. Parse errors of a file parsed here are the request's 4xx."""
    parse = parse_cost_s(upload)
    if parse > PARSE_BUDGET_S:
        check_size_caps(upload.kind, upload.data)  # the hard caps stay a 413
        return None
    prepared = preparing.prepare(upload)
    if parse + embed_cost_s(embedder, prepared) > SYNC_BUDGET_S:
        return None
    return prepared


@dataclass(frozen=True)
class Queued:
    """An upload stored for the worker: its document (``indexing``) and the upload's id."""

    document: KnowledgeDocument
    upload_id: str
    replaced: bool


def queue(session: Session, kb: KnowledgeBase, upload: preparing.Checked) -> Queued:
    """Stores the upload's bytes and marks its document ``indexing`` (a new row, or the one
    of the same name, which keeps what it was until the worker is done); an upload of the
    document still waiting is dropped."""
    doc = session.scalars(
        select(KnowledgeDocument).where(
            KnowledgeDocument.knowledge_base_id == kb.id, KnowledgeDocument.name == upload.name
        )
    ).first()
    if doc is None:
        doc = KnowledgeDocument(
            knowledge_base_id=kb.id,
            name=upload.name,
            media_type=MEDIA_TYPES[upload.kind],
            url=upload.url,
            size_bytes=len(upload.data),
            sha256=hashlib.sha256(upload.data).hexdigest(),
            chunk_count=0,
        )
        session.add(doc)
        session.flush()
    else:
        staging.drop_uploads(session, KnowledgeUpload.document_id == doc.id)
    replaced = service.live_revision(session, doc) is not None
    doc.status = "indexing"
    doc.progress_done = doc.progress_total = 0
    doc.error_code = doc.error = None
    row = KnowledgeUpload(
        document_id=doc.id, media_type=upload.media_type, url=upload.url, data=upload.data
    )
    session.add(row)
    session.flush()
    return Queued(doc, row.id, replaced)


def waiting(session: Session, stale_before: datetime) -> tuple[list[str], bool]:
    """Uploads a worker may take, oldest first (unclaimed, or claimed before
    ``stale_before``), and whether any upload waits at all."""
    free = or_(KnowledgeUpload.claim.is_(None), KnowledgeUpload.claimed_at < stale_before)
    ids = list(
        session.scalars(select(KnowledgeUpload.id).where(free).order_by(KnowledgeUpload.queued_at))
    )
    anything = ids or session.scalars(select(KnowledgeUpload.id).limit(1)).first()
    return ids, bool(anything)


def claim(upload_id: str, token: str, stale_before: datetime) -> bool:
    """Takes the upload for the run ``token`` unless a live run holds it; what a stopped
    run staged is deleted (a slow one still going sees the claim gone and stops)."""
    with write_scope() as session:
        previous = session.scalar(
            select(KnowledgeUpload.claim).where(KnowledgeUpload.id == upload_id)
        )
        taken = session.execute(
            update(KnowledgeUpload)
            .where(
                KnowledgeUpload.id == upload_id,
                or_(KnowledgeUpload.claim.is_(None), KnowledgeUpload.claimed_at < stale_before),
            )
            .values(claim=token, claimed_at=utcnow())
        )
        if not getattr(taken, "rowcount", 0):
            return False
        if previous is not None:
            staging.drop_staged(session, [previous])
        return True


def _ours(upload_id: str, token: str) -> ColumnElement[bool]:
    return and_(KnowledgeUpload.id == upload_id, KnowledgeUpload.claim == token)


class _Beat:
    """Progress of a run: at most every ``PROGRESS_EVERY_S``, refreshes the claim and the
    document's counts; raises ``Cancelled`` once the upload is gone."""

    def __init__(self, upload_id: str, token: str, document_id: str) -> None:
        self.upload_id, self.token, self.document_id = upload_id, token, document_id
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < PROGRESS_EVERY_S and done < total:
            return
        self.last = now
        with write_scope() as session:
            alive = session.execute(
                update(KnowledgeUpload)
                .where(_ours(self.upload_id, self.token))
                .values(claimed_at=utcnow())
            )
            if not getattr(alive, "rowcount", 0):
                raise Cancelled(self.upload_id)
            session.execute(
                update(KnowledgeDocument)
                .where(KnowledgeDocument.id == self.document_id)
                .values(progress_done=done, progress_total=total)
            )


@contextlib.contextmanager
def _kept_alive(upload_id: str, token: str, every_s: float) -> Iterator[None]:
    """Refreshes the claim every ``every_s`` while the run works (parsing a large PDF
    reports no progress for minutes), so no other worker takes the upload over."""
    stop = threading.Event()

    def refresh() -> None:
        while not stop.wait(every_s):
            with contextlib.suppress(SQLAlchemyError, VigiaError), write_scope() as session:
                session.execute(
                    update(KnowledgeUpload)
                    .where(_ours(upload_id, token))
                    .values(claimed_at=utcnow())
                )

    keeper = threading.Thread(target=refresh, name="vigia-knowledge-claim", daemon=True)
    keeper.start()
    try:
        yield
    finally:
        stop.set()


def index_upload(upload_id: str, token: str, keep_alive_s: float = 30.0) -> None:
    """Parses, embeds and writes a claimed upload, refreshing its claim every
    ``keep_alive_s``; the document ends ``ready``, or ``failed`` with the error's code. A
    cancelled upload is left as its deleter left it."""
    started = time.perf_counter()
    with session_scope() as session:
        row = session.get(KnowledgeUpload, upload_id)
        if row is None or row.claim != token:
            return
        doc = session.get(KnowledgeDocument, row.document_id)
        kb = session.get(KnowledgeBase, doc.knowledge_base_id) if doc is not None else None
        if doc is None or kb is None:
            return
        document_id, kb_id, embedder = doc.id, kb.id, kb.embedder
        stored = (doc.name, row.data, row.media_type, row.url)
    beat = _Beat(upload_id, token, document_id)
    try:
        with _kept_alive(upload_id, token, keep_alive_s):
            upload = preparing.check_upload(*stored)
            prepared = preparing.prepare(upload)
            beat(0, len(prepared.chunks))
            vectors = service.embed(embedder, prepared, beat)
            _stage(upload_id, token, kb_id, document_id, prepared, vectors)
        with write_scope() as session:  # the revision (the run's token), all at once
            gone = session.execute(delete(KnowledgeUpload).where(_ours(upload_id, token)))
            kb = session.get(KnowledgeBase, kb_id)
            if not getattr(gone, "rowcount", 0) or kb is None:
                raise Cancelled(upload_id)
            service.write_document(session, kb, upload, prepared, None, started, token)
    except Cancelled:
        log.info("knowledge upload %s cancelled", upload_id)
        _discard(token)
    except VigiaError as error:
        _fail(upload_id, token, document_id, error.code, error.detail)
    except Exception:
        log.exception("knowledge upload %s failed", upload_id)
        _fail(upload_id, token, document_id, "indexing_error", "indexing failed: see the log")


def _stage(
    upload_id: str,
    token: str,
    kb_id: str,
    document_id: str,
    prepared: preparing.Prepared,
    vectors: Vectors,
) -> None:
    """Writes the chunks in batches of ``staging.WRITE_BATCH``, each a short write
    transaction, under the revision id the document will get: the run's ``token``."""
    texts = prepared.texts()
    for start in range(0, len(texts), staging.WRITE_BATCH):
        with write_scope() as session:
            alive = session.execute(
                update(KnowledgeUpload).where(_ours(upload_id, token)).values(claimed_at=utcnow())
            )
            if not getattr(alive, "rowcount", 0):
                raise Cancelled(upload_id)
            seqs = range(start, min(start + staging.WRITE_BATCH, len(texts)))
            staging.add_chunks(session, kb_id, document_id, token, prepared, texts, vectors, seqs)


def _discard(token: str) -> None:
    """Deletes what the run ``token`` staged."""
    with write_scope() as session:
        staging.drop_staged(session, [token])


def _fail(upload_id: str, token: str, document_id: str, code: str, detail: str) -> None:
    """Drops the upload with what it staged and marks its document ``failed`` (unless it
    was cancelled)."""
    _discard(token)
    with write_scope() as session:
        gone = session.execute(delete(KnowledgeUpload).where(_ours(upload_id, token)))
        if not getattr(gone, "rowcount", 0):
            return
        session.execute(
            update(KnowledgeDocument)
            .where(KnowledgeDocument.id == document_id)
            .values(status="failed", error_code=code[:40], error=detail[:ERROR_CHARS])
        )


def stale_before(stale_s: float) -> datetime:
    """Claims older than this belong to a run that stopped (a server that died)."""
    return utcnow() - timedelta(seconds=stale_s)
