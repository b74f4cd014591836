"""The retrieval stage: passages from the knowledge bases of the turn's agent version."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from vigia.agents.service import published_moment
from vigia.engine.turn import Turn
from vigia.knowledge.retrieval import search_workspace
from vigia.language import content_terms
from vigia.llm.protocol import Passage

FOLLOW_UP_TERMS = 4


@dataclass(frozen=True)
class Retrieval:
    passages: list[Passage]

    outcome = "ok"

    def detail(self) -> dict[str, Any]:
        return {"passages": len(self.passages)}


def search_query(turn: Turn) -> str:
    """The text searched: the message, plus the previous user message for a short follow-up.

    "¿Y si el auto es 0 km?" alone finds nothing about the policy it follows up on.
    """
    if len(content_terms(turn.message)) > FOLLOW_UP_TERMS:
        return turn.message
    previous = [m.content for m in turn.history if m.role == "user"]
    return f"{previous[-1]}\n{turn.message}" if previous else turn.message


def retrieve(session: Session, turn: Turn) -> Retrieval:
    """Best passages first; only knowledge bases of the turn's own workspace are searched,
    as the turn's version reads them (a published version: the knowledge it pinned)."""
    ids = turn.config.knowledge_bases
    if not ids:
        return Retrieval([])
    at = None
    if turn.request.env == "production" and turn.version is not None:
        at = published_moment(session, turn.request.agent_id, turn.version)
    passages = search_workspace(
        session, turn.workspace_id, ids, search_query(turn), turn.config.top_k, at
    )
    return Retrieval(passages)
