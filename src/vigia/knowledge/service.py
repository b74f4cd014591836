"""Knowledge bases and their documents: create, upload (parse, chunk, embed, index), delete.

Every write happens in the caller's session: a document is indexed entirely or not at all.
Parsing and embedding come before the first write, so a bad file changes nothing. Writes
change the draft's knowledge: each upload is a new revision, a replaced or removed one is
retired (``vigia.knowledge.versions``), so published versions keep what they had.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath

import numpy as np
from sqlalchemy import ColumnElement, delete, func, select
from sqlalchemy.orm import Session

from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import draft_config, update_draft
from vigia.db.base import new_id, utcnow
from vigia.embeddings import Vectors
from vigia.errors import Conflict, Invalid, NotFound, TooLarge
from vigia.kit.fields import has_control_characters
from vigia.knowledge.chunking import Chunk, chunk_blocks
from vigia.knowledge.embedding import BATCH, DEFAULT_EMBEDDER, EMBEDDERS, embedder_for
from vigia.knowledge.models import (
    KnowledgeBase,
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeRevision,
)
from vigia.knowledge.parsers import document_kind, parse_document
from vigia.knowledge.versions import (
    collection_of,
    retire,
    revision_collection,
)
from vigia.observability import report
from vigia.search import Entry, index_for
from vigia.workspaces.models import Workspace

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
MAX_NAME_CHARS = 255
MAX_URL_CHARS = 2000
MAX_CHUNKS_PER_DOCUMENT = 20_000
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
    session.execute(delete(KnowledgeDocument).where(KnowledgeDocument.knowledge_base_id == kb.id))
    session.delete(kb)
    session.flush()


def list_documents(session: Session, kb: KnowledgeBase) -> list[KnowledgeDocument]:
    """The documents of the draft's knowledge (those with a live revision), by name."""
    return list(
        session.scalars(
            select(KnowledgeDocument)
            .join(KnowledgeRevision, KnowledgeRevision.document_id == KnowledgeDocument.id)
            .where(KnowledgeDocument.knowledge_base_id == kb.id, _live())
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
    if doc is None or doc.knowledge_base_id != kb.id or live_revision(session, doc) is None:
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


def delete_document(session: Session, kb: KnowledgeBase, doc: KnowledgeDocument) -> None:
    """Removes a document from the draft's knowledge; published versions that read it keep
    it until none can (``versions.retire``)."""
    revision = live_revision(session, doc)
    if revision is not None:
        retire(session, kb, revision, utcnow())
    kb.updated_at = utcnow()
    _forget_if_unread(session, doc)


def document_name(name: str) -> str:
    """The file name of an upload (any client-side folders dropped), checked."""
    base = PurePath(name.replace("\\", "/")).name.strip()
    if not base:
        raise Invalid("the document needs a file name")
    if len(base) > MAX_NAME_CHARS:
        raise Invalid(f"document names may have at most {MAX_NAME_CHARS} characters")
    if has_control_characters(base):
        raise Invalid("document names must not contain control characters (newline, tab…)")
    return base


def _checked_url(url: str | None) -> str | None:
    if url is None or not url.strip():
        return None
    url = url.strip()
    if (
        len(url) > MAX_URL_CHARS
        or not url.lower().startswith(("http://", "https://"))
        or has_control_characters(url)
    ):
        raise Invalid(f"url must be an http(s) address of at most {MAX_URL_CHARS} characters")
    return url


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
    name = document_name(name)
    document_kind(name, media_type)
    if len(data) > MAX_DOCUMENT_BYTES:
        raise TooLarge(f"documents may be at most {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB")
    url = _checked_url(url)
    parsed = parse_document(name, data, media_type)
    chunks = chunk_blocks(parsed.blocks)
    if len(chunks) > MAX_CHUNKS_PER_DOCUMENT:
        raise TooLarge(f"a document may give at most {MAX_CHUNKS_PER_DOCUMENT} chunks")
    vectors = _embed(kb, chunks, parsed.title, progress)
    doc = session.scalars(
        select(KnowledgeDocument).where(
            KnowledgeDocument.knowledge_base_id == kb.id, KnowledgeDocument.name == name
        )
    ).first()
    now = utcnow()
    previous = live_revision(session, doc) if doc is not None else None
    if doc is None:
        doc = KnowledgeDocument(knowledge_base_id=kb.id, name=name)
        session.add(doc)
    else:
        if previous is not None:
            retire(session, kb, previous, now)
        doc.updated_at = now
    doc.media_type = parsed.media_type
    doc.url = url or parsed.url
    doc.size_bytes = len(data)
    doc.sha256 = hashlib.sha256(data).hexdigest()
    doc.pages = parsed.pages
    doc.chunk_count = len(chunks)
    session.flush()
    revision_id = new_id()
    revision = KnowledgeRevision(
        id=revision_id,
        knowledge_base_id=kb.id,
        document_id=doc.id,
        collection=revision_collection(revision_id),
        added_at=now,
    )
    session.add(revision)
    rows = [
        KnowledgeChunk(
            document_id=doc.id,
            knowledge_base_id=kb.id,
            revision_id=revision.id,
            seq=seq,
            text=chunk.text,
            page=chunk.page,
            heading=chunk.heading[:1000] if chunk.heading else None,
        )
        for seq, chunk in enumerate(chunks)
    ]
    session.add_all(rows)
    session.flush()
    entries = [
        Entry(row.id, chunk.indexed_text(parsed.title), vectors[i])
        for i, (row, chunk) in enumerate(zip(rows, chunks, strict=True))
    ]
    index_for(session).add(session, revision.collection, entries)
    kb.updated_at = now
    session.flush()
    report.knowledge_indexed(len(chunks), time.perf_counter() - started)
    return Upload(doc, previous is not None)


def _embed(
    kb: KnowledgeBase, chunks: list[Chunk], title: str | None, progress: Progress | None
) -> Vectors:
    """Passage vectors of the chunks (heading + text), in batches, reporting progress."""
    embedder = embedder_for(kb.embedder)
    texts = [c.indexed_text(title) for c in chunks]
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
