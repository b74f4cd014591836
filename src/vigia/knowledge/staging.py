"""Chunks of a background upload written in short batches before its revision exists.

The ingest worker writes a large document's chunks and index entries a few hundred at a
time, each batch its own short write transaction, under the revision id the document will
get (the run's claim token, so two runs never mix) and in that revision's own search
collection. No view searches that
collection until the revision row is written, last, in one short transaction, so the
document still appears all at once, and no write holds the database's write lock for long.
A cancelled, failed or interrupted run leaves staged rows that ``drop_staged`` removes.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.orm import Session

from vigia.embeddings import Vectors
from vigia.knowledge.models import KnowledgeChunk, KnowledgeUpload
from vigia.knowledge.preparing import Prepared
from vigia.knowledge.versions import revision_collection
from vigia.search import Entry, index_for

WRITE_BATCH = 500


def add_chunks(
    session: Session,
    kb_id: str,
    document_id: str,
    revision_id: str,
    prepared: Prepared,
    texts: Sequence[str],
    vectors: Vectors,
    seqs: range,
) -> None:
    """Writes the chunks ``seqs`` of the upload with their index entries (``texts`` and
    ``vectors`` are the whole upload's, by chunk)."""
    rows = [
        KnowledgeChunk(
            document_id=document_id,
            knowledge_base_id=kb_id,
            revision_id=revision_id,
            seq=seq,
            text=prepared.chunks[seq].text,
            page=prepared.chunks[seq].page,
            heading=(prepared.chunks[seq].heading or "")[:1000] or None,
        )
        for seq in seqs
    ]
    session.add_all(rows)
    session.flush()
    entries = [Entry(row.id, texts[row.seq], vectors[row.seq]) for row in rows]
    index_for(session).add(session, revision_collection(revision_id), entries)


def drop_staged(session: Session, revision_ids: Sequence[str]) -> None:
    """Deletes the chunks and index entries staged under ``revision_ids``."""
    index = index_for(session)
    for revision_id in revision_ids:
        index.drop(session, revision_collection(revision_id))
    if revision_ids:
        session.execute(
            delete(KnowledgeChunk).where(KnowledgeChunk.revision_id.in_(list(revision_ids)))
        )
    session.flush()


def drop_uploads(session: Session, where: ColumnElement[bool]) -> None:
    """Deletes the waiting uploads ``where`` selects with what they staged; their worker
    runs see them gone and stop."""
    rows = session.execute(select(KnowledgeUpload.id, KnowledgeUpload.claim).where(where)).all()
    if rows:
        drop_staged(session, [claim for _, claim in rows if claim is not None])
        ids = [upload_id for upload_id, _ in rows]
        session.execute(delete(KnowledgeUpload).where(KnowledgeUpload.id.in_(ids)))
