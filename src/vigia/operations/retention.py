"""Retention: conversations, runs (with their stages) and reviews older than a date go.

The unit is the conversation: one is purged only when nothing in it (message, run or
review) is at or after the cutoff, and then it goes whole, with its messages, runs, run
stages and reviews, in one transaction per batch. Runs and reviews that belong to no stored
conversation go by their own date. So nothing newer than the cutoff is touched, and no row
is left pointing at a purged one.

Budgets add up this month's runs, so a cutoff after the first of the month (UTC) is refused
(``VIGIA_RETENTION_DAYS`` is at least 31 for the same reason).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import ColumnElement, delete, exists, or_, select
from sqlalchemy.orm import Session

from vigia.conversations.models import Conversation, Message
from vigia.db.base import Base, utcnow
from vigia.db.session import session_scope
from vigia.engine import month_start
from vigia.engine.models import BudgetReservation, Run, RunStage
from vigia.errors import Invalid
from vigia.review.models import OutputReview

BATCH = 500
logger = logging.getLogger("vigia.retention")


def cutoff_of(value: str) -> datetime:
    """``2025-01-31`` (midnight UTC) or an ISO date-time (UTC when it names no zone)."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise Invalid(f"--before must be an ISO date such as 2025-01-31, not {value!r}") from None
    if len(value) == 10:
        parsed = datetime.combine(date.fromisoformat(value), time(), UTC)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _idle_conversations(session: Session, cutoff: datetime, limit: int) -> list[str]:
    c = Conversation
    active = or_(
        exists().where(Message.conversation_id == c.id, Message.created_at >= cutoff),
        exists().where(Run.conversation_id == c.id, Run.created_at >= cutoff),
        exists().where(OutputReview.conversation_id == c.id, OutputReview.created_at >= cutoff),
    )
    query = select(c.id).where(c.created_at < cutoff, ~active).order_by(c.created_at).limit(limit)
    return list(session.scalars(query))


def _delete(session: Session, model: type[Base], *where: ColumnElement[bool]) -> int:
    statement = delete(model).where(*where).execution_options(synchronize_session=False)
    return int(getattr(session.execute(statement), "rowcount", 0) or 0)


def _purge_conversations(session: Session, ids: list[str], counts: Counter[str]) -> None:
    runs = select(Run.id).where(Run.conversation_id.in_(ids))
    counts["run_stages"] += _delete(session, RunStage, RunStage.run_id.in_(runs))
    counts["runs"] += _delete(session, Run, Run.conversation_id.in_(ids))
    counts["reviews"] += _delete(session, OutputReview, OutputReview.conversation_id.in_(ids))
    counts["messages"] += _delete(session, Message, Message.conversation_id.in_(ids))
    counts["conversations"] += _delete(session, Conversation, Conversation.id.in_(ids))


def _stray_runs(session: Session, cutoff: datetime, limit: int) -> list[str]:
    """Old runs of no stored conversation (e.g. a failed first turn)."""
    stored = exists().where(Conversation.id == Run.conversation_id)
    query = select(Run.id).where(
        Run.created_at < cutoff, or_(Run.conversation_id.is_(None), ~stored)
    )
    return list(session.scalars(query.limit(limit)))


def _stray_reviews(session: Session, cutoff: datetime, limit: int) -> list[str]:
    stored = exists().where(Conversation.id == OutputReview.conversation_id)
    query = select(OutputReview.id).where(
        OutputReview.created_at < cutoff, or_(OutputReview.conversation_id.is_(None), ~stored)
    )
    return list(session.scalars(query.limit(limit)))


def purge_before(cutoff: datetime, batch: int = BATCH) -> dict[str, object]:
    """Deletes what is older than ``cutoff``; returns how many rows of each kind went."""
    if cutoff.tzinfo is None:
        cutoff = cutoff.replace(tzinfo=UTC)
    if cutoff > month_start():
        raise Invalid(
            "the cutoff must not be after the first of this month (UTC): budgets count "
            "this month's runs"
        )
    counts: Counter[str] = Counter()
    while True:
        with session_scope() as session:
            ids = _idle_conversations(session, cutoff, batch)
            if not ids:
                break
            _purge_conversations(session, ids, counts)
    while True:
        with session_scope() as session:
            ids = _stray_runs(session, cutoff, batch)
            if not ids:
                break
            counts["run_stages"] += _delete(session, RunStage, RunStage.run_id.in_(ids))
            counts["runs"] += _delete(session, Run, Run.id.in_(ids))
    while True:
        with session_scope() as session:
            ids = _stray_reviews(session, cutoff, batch)
            if not ids:
                break
            counts["reviews"] += _delete(session, OutputReview, OutputReview.id.in_(ids))
    with session_scope() as session:
        stale = BudgetReservation.created_at < cutoff
        counts["budget_reservations"] += _delete(session, BudgetReservation, stale)
    kinds = ("conversations", "messages", "runs", "run_stages", "reviews", "budget_reservations")
    result: dict[str, object] = {"before": cutoff.isoformat(), **{k: counts[k] for k in kinds}}
    logger.info("retention purge", extra=result)
    return result


def retention_cutoff(days: int) -> datetime:
    return utcnow() - timedelta(days=days)


class RetentionTimer:
    """Purges with ``VIGIA_RETENTION_DAYS`` in a daemon thread of the server: a minute after
    it starts, then every ``every_s`` seconds."""

    def __init__(self, days: int, every_s: float = 6 * 3600, first_after_s: float = 60.0) -> None:
        self.days, self.every_s, self.first_after_s = days, every_s, first_after_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="vigia-retention", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _loop(self) -> None:
        wait = self.first_after_s
        while not self._stop.wait(wait):
            wait = self.every_s
            try:
                purge_before(retention_cutoff(self.days))
            except Exception:  # the server keeps serving; the next round tries again
                logger.exception("retention purge failed")
