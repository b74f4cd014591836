"""The retrieval stage the engine calls."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.engine.turn import Turn
from vigia.knowledge.models import KnowledgeBase
from vigia.knowledge.retrieval import search_knowledge
from vigia.llm.protocol import Passage


def retrieve(session: Session, turn: Turn) -> list[Passage]:
    """Passages from the knowledge bases of the turn's agent version, best first.

    Only knowledge bases of the turn's own workspace are searched, whatever ids the
    configuration lists.
    """
    ids = list(dict.fromkeys(turn.config.knowledge_bases))
    if not ids:
        return []
    kbs = list(
        session.scalars(
            select(KnowledgeBase)
            .where(KnowledgeBase.id.in_(ids), KnowledgeBase.workspace_id == turn.workspace_id)
            .order_by(KnowledgeBase.id)
        )
    )
    return search_knowledge(session, kbs, turn.message, turn.config.top_k)
