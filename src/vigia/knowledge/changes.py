"""What publishing would change in an agent's knowledge: documents added, replaced or
removed in its draft's knowledge bases since the published version's moment."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.agents.service import AgentRow, draft_config, published_knowledge
from vigia.knowledge.models import KnowledgeBase, KnowledgeDocument, KnowledgeRevision
from vigia.knowledge.versions import live_at

Change = Literal["added", "replaced", "removed"]


@dataclass(frozen=True)
class KnowledgeChange:
    """One document whose knowledge differs between the draft and production."""

    knowledge_base: str
    document: str
    change: Change


def _revisions(session: Session, kb_id: str, at: datetime | None) -> dict[str, str]:
    """Document id → the id of its revision read at ``at`` (None: the draft)."""
    rows = session.execute(
        select(KnowledgeRevision.document_id, KnowledgeRevision.id).where(
            KnowledgeRevision.knowledge_base_id == kb_id, live_at(at)
        )
    ).all()
    return {document_id: revision_id for document_id, revision_id in rows}


def pending_changes(session: Session, agent: AgentRow) -> list[KnowledgeChange]:
    """The documents of the draft's knowledge bases whose revision production does not read
    yet (every document, if nothing is published), by base and document name."""
    draft = draft_config(agent)
    published = published_knowledge(session, agent)
    read = published.knowledge_bases if published is not None else []
    changes: list[KnowledgeChange] = []
    for kb_id in dict.fromkeys(draft.knowledge_bases):
        kb = session.get(KnowledgeBase, kb_id)
        if kb is None or kb.workspace_id != agent.workspace_id:
            continue
        now = _revisions(session, kb.id, None)
        before = (
            _revisions(session, kb.id, published.moment)
            if published is not None and kb_id in read
            else {}
        )
        kinds: dict[str, Change] = {}
        for doc_id, revision_id in now.items():
            if doc_id not in before:
                kinds[doc_id] = "added"
            elif before[doc_id] != revision_id:
                kinds[doc_id] = "replaced"
        kinds |= {doc_id: "removed" for doc_id in before if doc_id not in now}
        names = dict(
            session.execute(
                select(KnowledgeDocument.id, KnowledgeDocument.name).where(
                    KnowledgeDocument.id.in_(list(kinds))
                )
            ).all()
        )
        changes += [KnowledgeChange(kb.name, names[d], kind) for d, kind in kinds.items()]
    return sorted(changes, key=lambda c: (c.knowledge_base, c.document))
