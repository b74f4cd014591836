"""Which revisions of a knowledge base each agent version reads, and retiring revisions.

A version published at time T reads the revisions live at T (added at or before T, not
removed by then); the draft reads those not removed. Each revision's chunks form their own
search collection, so a view is the list of collections it searches: the ranking is the
index's own (document frequencies are global on both backends). Revisions from before
versioning share the base's collection ``kb:<id>``; retiring one moves its entries to a
collection of its own first. A retired revision no version can read is deleted at once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

import numpy as np
from numpy.typing import NDArray
from sqlalchemy import ColumnElement, and_, delete, or_, select
from sqlalchemy.orm import Session

from vigia.agents.service import moment_read_between
from vigia.knowledge.models import KnowledgeBase, KnowledgeChunk, KnowledgeRevision
from vigia.search import Entry, index_for
from vigia.search.models import SearchEntry


def collection_of(kb_id: str) -> str:
    """The search collection shared by a base's revisions from before versioning."""
    return f"kb:{kb_id}"


def revision_collection(revision_id: str) -> str:
    """The search collection of one revision's chunks."""
    return f"kbrev:{revision_id}"


def live_at(at: datetime | None) -> ColumnElement[bool]:
    """The revisions a view reads: live at ``at``, or not removed (the draft) when None."""
    r = KnowledgeRevision
    if at is None:
        return r.removed_at.is_(None)
    return and_(r.added_at <= at, or_(r.removed_at.is_(None), r.removed_at > at))


def collections_at(
    session: Session, kbs: Sequence[KnowledgeBase], at: datetime | None
) -> dict[str, list[str]]:
    """Per knowledge base id, the search collections of the revisions live at ``at``."""
    rows = session.execute(
        select(KnowledgeRevision.knowledge_base_id, KnowledgeRevision.collection)
        .where(KnowledgeRevision.knowledge_base_id.in_([kb.id for kb in kbs]), live_at(at))
        .distinct()
        .order_by(KnowledgeRevision.collection)
    ).all()
    found: dict[str, list[str]] = defaultdict(list)
    for kb_id, collection in rows:
        found[kb_id].append(collection)
    return found


def _readable(session: Session, kb: KnowledgeBase, since: datetime, until: datetime) -> bool:
    """Whether a published version of the base's workspace reads a moment in [since, until)."""
    return moment_read_between(session, kb.workspace_id, since, until)


def drop_revision(session: Session, kb: KnowledgeBase, revision: KnowledgeRevision) -> None:
    """Deletes a revision with its chunks and index entries."""
    index = index_for(session)
    if revision.collection == collection_of(kb.id):
        keys = session.scalars(
            select(KnowledgeChunk.id).where(KnowledgeChunk.revision_id == revision.id)
        )
        index.remove(session, revision.collection, list(keys))
    else:
        index.drop(session, revision.collection)
    session.execute(delete(KnowledgeChunk).where(KnowledgeChunk.revision_id == revision.id))
    session.delete(revision)
    session.flush()


def _move_to_own_collection(
    session: Session, kb: KnowledgeBase, revision: KnowledgeRevision
) -> None:
    """Moves a pre-versioning revision's entries out of the shared collection (their
    vectors as stored; the words from heading and text, the document title not being kept)."""
    chunks = {
        c.id: c
        for c in session.scalars(
            select(KnowledgeChunk).where(KnowledgeChunk.revision_id == revision.id)
        )
    }
    vectors = session.execute(
        select(SearchEntry.key, SearchEntry.vector).where(
            SearchEntry.collection == revision.collection, SearchEntry.key.in_(list(chunks))
        )
    ).all()
    entries = []
    for key, vector in vectors:
        chunk = chunks[key]
        text = f"{chunk.heading}\n{chunk.text}" if chunk.heading else chunk.text
        entries.append(Entry(key, text, _vector(vector)))
    index = index_for(session)
    index.remove(session, revision.collection, [e.key for e in entries])
    revision.collection = revision_collection(revision.id)
    index.add(session, revision.collection, entries)


def _vector(stored: bytes) -> NDArray[np.float32]:
    return np.frombuffer(stored, dtype=np.float32)


def retire(session: Session, kb: KnowledgeBase, revision: KnowledgeRevision, now: datetime) -> None:
    """Ends a revision's life at ``now`` (its document replaced or removed): kept while a
    published version may read it, deleted otherwise."""
    if not _readable(session, kb, revision.added_at, now):
        drop_revision(session, kb, revision)
        return
    if revision.collection == collection_of(kb.id):
        _move_to_own_collection(session, kb, revision)
    revision.removed_at = now
    session.flush()
