"""The retrieval stage the engine calls."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.engine.turn import Turn
from vigia.knowledge.models import KnowledgeBase
from vigia.knowledge.retrieval import search_knowledge
from vigia.language import content_terms
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
    return search_knowledge(session, kbs, search_query(turn), turn.config.top_k)


FOLLOW_UP_TERMS = 4


def search_query(turn: Turn) -> str:
    """The text searched: the message, plus the previous user message for a short follow-up.

    "¿Y si el auto es 0 km?" alone finds nothing about the policy it follows up on.
    """
    if len(content_terms(turn.message)) > FOLLOW_UP_TERMS:
        return turn.message
    previous = [m.content for m in turn.history if m.role == "user"]
    return f"{previous[-1]}\n{turn.message}" if previous else turn.message
