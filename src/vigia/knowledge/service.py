"""Knowledge bases and their documents: create, upload (parse, chunk, embed, index), delete.

Every write happens in the caller's session: a document is indexed entirely or not at all.
Parsing and embedding come before the first write, so a bad file changes nothing. Writes
change the draft's knowledge: each upload is a new revision, a replaced or removed one is
retired (``vigia.knowledge.versions``), so published versions keep what they had. An upload
too costly for one request goes through the same steps in the background
(``vigia.knowledge.ingest``); meanwhile its document is ``indexing``.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from sqlalchemy import ColumnElement, delete, exists, func, or_, select
from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import draft_config, update_draft
from vigia.db.base import new_id, utcnow
from vigia.embeddings import Vectors
from vigia.errors import Conflict, Invalid, NotFound
from vigia.knowledge.embedding import BATCH, DEFAULT_EMBEDDER, EMBEDDERS, embedder_for
from vigia.knowledge.models import (
    KnowledgeBase,
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeRevision,
    KnowledgeUpload,
)
from vigia.knowledge.preparing import MAX_DOCUMENT_BYTES as MAX_DOCUMENT_BYTES
from vigia.knowledge.preparing import MAX_URL_CHARS as MAX_URL_CHARS
from vigia.knowledge.preparing import Checked, Prepared, check_upload, prepare
from vigia.knowledge.staging import add_chunks, drop_uploads
from vigia.knowledge.versions import (
    collection_of,
    retire,
    revision_collection,
)
from vigia.observability import report
from vigia.search import index_for
from vigia.workspaces.models import Workspace

MAX_KNOWLEDGE_BASES = 200

Progress = Callable[[int, int], None]


def create_knowledge_base(
    session: Session,
    workspace: Workspace,
    name: str,
    description: str = "",
    embedder: str = DEFAULT_EMBEDDER,
) -> KnowledgeBase:
    """A new, empty knowledge base; names are unique within the workspace."""
    name = name.strip()
    if not name or len(name) > 120:
        raise Invalid("knowledge base name must be 1 to 120 characters")
    if embedder not in EMBEDDERS:
        raise Invalid(f"embedder must be one of: {', '.join(EMBEDDERS)}")
    taken = session.scalars(
        select(KnowledgeBase).where(
            KnowledgeBase.workspace_id == workspace.id, KnowledgeBase.name == name
        )
    ).first()
    if taken is not None:
        raise Conflict(f"knowledge base '{name}' already exists in this workspace")
    count = session.scalar(
        select(func.count())
        .select_from(KnowledgeBase)
        .where(KnowledgeBase.workspace_id == workspace.id)
    )
    if (count or 0) >= MAX_KNOWLEDGE_BASES:
        raise Invalid(f"a workspace may have at most {MAX_KNOWLEDGE_BASES} knowledge bases")
    kb = KnowledgeBase(
        workspace_id=workspace.id, name=name, description=description[:2000], embedder=embedder
    )
    session.add(kb)
    session.flush()
    return kb


def list_knowledge_bases(session: Session, workspace: Workspace) -> list[KnowledgeBase]:
    return list(
        session.scalars(
            select(KnowledgeBase)
            .where(KnowledgeBase.workspace_id == workspace.id)
            .order_by(KnowledgeBase.name)
        )
    )


def get_knowledge_base(session: Session, workspace: Workspace, kb_id: str) -> KnowledgeBase:
    """A knowledge base of the workspace; another workspace's is simply not found."""
    kb = session.get(KnowledgeBase, kb_id)
    if kb is None or kb.workspace_id != workspace.id:
        raise NotFound(f"knowledge base '{kb_id}' not found")
    return kb


def _live() -> ColumnElement[bool]:
    return KnowledgeRevision.removed_at.is_(None)


def sizes(session: Session, kb: KnowledgeBase) -> tuple[int, int]:
    """How many documents and chunks the knowledge base holds (its draft's)."""
    documents = session.scalar(
        select(func.count())
        .select_from(KnowledgeRevision)
        .where(KnowledgeRevision.knowledge_base_id == kb.id, _live())
    )
    chunks = session.scalar(
        select(func.count())
        .select_from(KnowledgeChunk)
        .join(KnowledgeRevision, KnowledgeRevision.id == KnowledgeChunk.revision_id)
        .where(KnowledgeRevision.knowledge_base_id == kb.id, _live())
    )
    return documents or 0, chunks or 0


def delete_knowledge_base(session: Session, kb: KnowledgeBase) -> None:
    """Deletes the knowledge base with every document, revision, chunk and index entry."""
    index = index_for(session)
    collections = set(
        session.scalars(
            select(KnowledgeRevision.collection).where(KnowledgeRevision.knowledge_base_id == kb.id)
        )
    )
    for collection in sorted(collections | {collection_of(kb.id)}):
        index.drop(session, collection)
    session.execute(delete(KnowledgeChunk).where(KnowledgeChunk.knowledge_base_id == kb.id))
    session.execute(delete(KnowledgeRevision).where(KnowledgeRevision.knowledge_base_id == kb.id))
    of_base = select(KnowledgeDocument.id).where(KnowledgeDocument.knowledge_base_id == kb.id)
    drop_uploads(session, KnowledgeUpload.document_id.in_(of_base))
    session.execute(delete(KnowledgeDocument).where(KnowledgeDocument.knowledge_base_id == kb.id))
    session.delete(kb)
    session.flush()


def _listed() -> ColumnElement[bool]:
    """Documents the admin sees: those the draft reads, and those indexing or failed."""
    read = exists().where(KnowledgeRevision.document_id == KnowledgeDocument.id, _live())
    return or_(read, KnowledgeDocument.status != "ready")


def list_documents(session: Session, kb: KnowledgeBase) -> list[KnowledgeDocument]:
    """The documents of the draft's knowledge (those with a live revision) and those being
    indexed or whose indexing failed, by name."""
    return list(
        session.scalars(
            select(KnowledgeDocument)
            .where(KnowledgeDocument.knowledge_base_id == kb.id, _listed())
            .order_by(KnowledgeDocument.name)
        )
    )


def live_revision(session: Session, doc: KnowledgeDocument) -> KnowledgeRevision | None:
    """The document's revision the draft reads, if it has one."""
    return session.scalars(
        select(KnowledgeRevision).where(KnowledgeRevision.document_id == doc.id, _live())
    ).first()


def get_document(session: Session, kb: KnowledgeBase, document_id: str) -> KnowledgeDocument:
    doc = session.get(KnowledgeDocument, document_id)
    if doc is None or doc.knowledge_base_id != kb.id:
        raise NotFound(f"document '{document_id}' not found")
    if doc.status == "ready" and live_revision(session, doc) is None:
        raise NotFound(f"document '{document_id}' not found")
    return doc


def document_chunks(session: Session, doc: KnowledgeDocument) -> list[KnowledgeChunk]:
    """The chunks of the document's live revision, in reading order."""
    revision = live_revision(session, doc)
    if revision is None:
        return []
    return list(
        session.scalars(
            select(KnowledgeChunk)
            .where(KnowledgeChunk.revision_id == revision.id)
            .order_by(KnowledgeChunk.seq)
        )
    )


def _forget_if_unread(session: Session, doc: KnowledgeDocument) -> None:
    """Deletes a document row no revision refers to any more."""
    left = session.scalar(
        select(func.count())
        .select_from(KnowledgeRevision)
        .where(KnowledgeRevision.document_id == doc.id)
    )
    if not left:
        session.delete(doc)
    session.flush()


def _settle(session: Session, doc: KnowledgeDocument) -> None:
    """Drops the document's waiting upload, if any (the ingest worker sees it gone and
    stops), and marks the document ready."""
    drop_uploads(session, KnowledgeUpload.document_id == doc.id)
    doc.status = "ready"
    doc.error_code = doc.error = None


def delete_document(session: Session, kb: KnowledgeBase, doc: KnowledgeDocument) -> None:
    """Removes a document from the draft's knowledge, cancelling its background indexing;
    published versions that read it keep it until none can (``versions.retire``)."""
    _settle(session, doc)
    revision = live_revision(session, doc)
    if revision is not None:
        retire(session, kb, revision, utcnow())
    kb.updated_at = utcnow()
    _forget_if_unread(session, doc)


@dataclass(frozen=True)
class Upload:
    """The outcome of adding a document."""

    document: KnowledgeDocument
    replaced: bool


def add_document(
    session: Session,
    kb: KnowledgeBase,
    name: str,
    data: bytes,
    media_type: str | None = None,
    url: str | None = None,
    progress: Progress | None = None,
) -> Upload:
    """Parses, chunks, embeds and indexes a document; one of the same name is replaced."""
    started = time.perf_counter()
    upload = check_upload(name, data, media_type, url)
    prepared = prepare(upload)
    vectors = embed(kb.embedder, prepared, progress)
    return write_document(session, kb, upload, prepared, vectors, started)


def write_document(
    session: Session,
    kb: KnowledgeBase,
    upload: Checked,
    prepared: Prepared,
    vectors: Vectors | None,
    started: float,
    revision_id: str | None = None,
) -> Upload:
    """Writes the document (replacing the one of the same name), its revision, chunks and
    index entries; a background upload the document was waiting for is dropped. With
    ``vectors`` None the chunks were staged already under ``revision_id``
    (``vigia.knowledge.staging``)."""
    parsed, chunks = prepared.parsed, prepared.chunks
    doc = session.scalars(
        select(KnowledgeDocument).where(
            KnowledgeDocument.knowledge_base_id == kb.id, KnowledgeDocument.name == upload.name
        )
    ).first()
    now = utcnow()
    previous = live_revision(session, doc) if doc is not None else None
    if doc is None:
        doc = KnowledgeDocument(knowledge_base_id=kb.id, name=upload.name)
        session.add(doc)
    else:
        _settle(session, doc)
        if previous is not None:
            retire(session, kb, previous, now)
        doc.updated_at = now
    doc.media_type = parsed.media_type
    doc.url = upload.url or parsed.url
    doc.size_bytes = len(upload.data)
    doc.sha256 = hashlib.sha256(upload.data).hexdigest()
    doc.pages = parsed.pages
    doc.chunk_count = doc.progress_done = doc.progress_total = len(chunks)
    session.flush()
    revision_id = revision_id or new_id()
    session.add(
        KnowledgeRevision(
            id=revision_id,
            knowledge_base_id=kb.id,
            document_id=doc.id,
            collection=revision_collection(revision_id),
            added_at=now,
        )
    )
    if vectors is not None:
        texts = prepared.texts()
        add_chunks(
            session, kb.id, doc.id, revision_id, prepared, texts, vectors, range(len(chunks))
        )
    kb.updated_at = now
    session.flush()
    report.knowledge_indexed(len(chunks), time.perf_counter() - started)
    return Upload(doc, previous is not None)


def embed(embedder_name: str, prepared: Prepared, progress: Progress | None) -> Vectors:
    """Passage vectors of the chunks (heading + text), in batches, reporting progress."""
    embedder = embedder_for(embedder_name)
    texts = prepared.texts()
    parts = []
    for start in range(0, len(texts), BATCH):
        parts.append(embedder.passages(texts[start : start + BATCH]))
        if progress is not None:
            progress(min(start + BATCH, len(texts)), len(texts))
    if not parts:
        return np.zeros((0, embedder.dim), dtype=np.float32)
    return np.concatenate(parts)


def agent_knowledge_base(session: Session, workspace: Workspace, agent: Agent) -> KnowledgeBase:
    """The knowledge base documents added to ``agent`` go to: the first one its draft lists,
    else one named after the agent, created if needed and added to the draft."""
    draft = draft_config(agent)
    for kb_id in draft.knowledge_bases:
        kb = session.get(KnowledgeBase, kb_id)
        if kb is not None and kb.workspace_id == workspace.id:
            return kb
    kb = session.scalars(
        select(KnowledgeBase).where(
            KnowledgeBase.workspace_id == workspace.id, KnowledgeBase.name == agent.slug
        )
    ).first()
    if kb is None:
        kb = create_knowledge_base(
            session, workspace, agent.slug, f"Documents of agent {agent.slug}"
        )
    update_draft(session, agent, AgentPatch(knowledge_bases=[*draft.knowledge_bases, kb.id]))
    return kb
