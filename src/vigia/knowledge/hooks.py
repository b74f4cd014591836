"""The retrieval stage the engine calls."""

from __future__ import annotations

from sqlalchemy.orm import Session

from vigia.engine.turn import Turn
from vigia.llm.protocol import Passage


def retrieve(session: Session, turn: Turn) -> list[Passage]:
    """Passages from the knowledge bases of the turn's agent version, best first."""
    return []
