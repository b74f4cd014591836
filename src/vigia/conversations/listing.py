"""Listings of a workspace's conversations: filters (agent, handoff, channel, text or id),
the most recent message first, one page at a time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, case, exists, func, or_, select
from sqlalchemy.orm import Session

from vigia.conversations.models import Conversation, Message

MARKS = ("blocked", "flagged")
"""Message marks a listing counts: input a guardrail blocked or flagged."""


@dataclass(frozen=True)
class ConversationFilter:
    """Which conversations a listing shows; every field left empty shows them all."""

    agent_id: str | None = None
    handoff: bool | None = None
    """Only those a person holds (True), or only those the agent answers (False)."""
    channels: tuple[str, ...] | None = None
    """Only conversations from these channels."""
    text: str = ""
    """Words of a message (any case), the start of the conversation's id, or the external
    agent's own id for it."""


@dataclass(frozen=True)
class ConversationSummary:
    """A conversation as listings show it: how many messages, how many a guardrail marked,
    the last one, and the customer's messages no operator has answered yet (``unread``:
    those after the last operator reply; ``waiting_since``: when the oldest of them came)."""

    conversation: Conversation
    messages: int
    marked: int
    last_message: Message | None
    unread: int = 0
    waiting_since: datetime | None = None

    def waited(self, now: datetime) -> timedelta | None:
        """How long the customer has waited for an operator at ``now``; None if nobody is."""
        if self.waiting_since is None:
            return None
        since = self.waiting_since
        since = since if since.tzinfo is not None else since.replace(tzinfo=UTC)
        return max(now - since, timedelta(0))

    @property
    def started_at(self) -> datetime:
        return self.conversation.created_at

    @property
    def last_at(self) -> datetime:
        last = self.last_message
        return last.created_at if last is not None else self.conversation.updated_at


@dataclass(frozen=True)
class ConversationPage:
    """One page of a listing: its rows, where it starts, and whether more follow."""

    rows: list[ConversationSummary]
    offset: int
    has_more: bool


def _matching(text: str) -> ColumnElement[bool]:
    """The condition a conversation meets when ``text`` names it or one of its messages."""
    said = exists().where(
        Message.conversation_id == Conversation.id,
        Message.content.icontains(text, autoescape=True),
    )
    return or_(
        Conversation.id.startswith(text, autoescape=True), Conversation.external_id == text, said
    )


def list_conversations(
    session: Session,
    workspace_id: str,
    where: ConversationFilter | None = None,
    *,
    offset: int = 0,
    limit: int = 100,
) -> ConversationPage:
    """The workspace's conversations that ``where`` keeps, most recent message first,
    ``limit`` of them from ``offset``."""
    where = where or ConversationFilter()
    scope = select(Conversation.id).where(Conversation.workspace_id == workspace_id)
    stats = (
        select(
            Message.conversation_id,
            func.count().label("n"),
            func.max(Message.id).label("last_id"),
            func.sum(case((Message.moderation.in_(MARKS), 1), else_=0)).label("marked"),
            func.max(case((Message.role == "operator", Message.id))).label("answered_id"),
        )
        .where(Message.conversation_id.in_(scope))
        .group_by(Message.conversation_id)
        .subquery()
    )
    pending = (
        select(
            Message.conversation_id,
            func.count().label("unread"),
            func.min(Message.created_at).label("waiting_since"),
        )
        .join(stats, stats.c.conversation_id == Message.conversation_id)
        .where(Message.role == "user", Message.id > func.coalesce(stats.c.answered_id, 0))
        .group_by(Message.conversation_id)
        .subquery()
    )
    last = select(Message.created_at).where(Message.id == stats.c.last_id).scalar_subquery()
    query = (
        select(
            Conversation,
            stats.c.n,
            stats.c.last_id,
            stats.c.marked,
            pending.c.unread,
            pending.c.waiting_since,
        )
        .outerjoin(stats, stats.c.conversation_id == Conversation.id)
        .outerjoin(pending, pending.c.conversation_id == Conversation.id)
        .where(Conversation.workspace_id == workspace_id)
        .order_by(func.coalesce(last, Conversation.updated_at).desc(), Conversation.id)
        .offset(offset)
        .limit(limit + 1)
    )
    if where.agent_id is not None:
        query = query.where(Conversation.agent_id == where.agent_id)
    if where.handoff is not None:
        query = query.where(Conversation.handoff.is_(where.handoff))
    if where.channels is not None:
        query = query.where(Conversation.channel.in_(where.channels))
    if where.text.strip():
        query = query.where(_matching(where.text.strip()))
    rows = session.execute(query).all()
    shown = rows[:limit]
    last_ids = [row.last_id for row in shown if row.last_id is not None]
    lasts = {m.id: m for m in session.scalars(select(Message).where(Message.id.in_(last_ids)))}
    summaries = [
        ConversationSummary(
            row[0],
            row.n or 0,
            int(row.marked or 0),
            lasts.get(row.last_id),
            int(row.unread or 0),
            row.waiting_since,
        )
        for row in shown
    ]
    return ConversationPage(summaries, offset, len(rows) > limit)
