"""Conversations over worlds: integer ids, pin, rename, delete, and read-only shares.

A share is a wrapper row owned by the recipient (``origin = received_share``) that points at
the original; it shows the original's messages live, can be pinned or deleted, never
renamed or appended to (403). Deleting the original removes its wrappers.
"""

from __future__ import annotations

from sqlalchemy import delete as sa_delete
from sqlalchemy import select
from sqlalchemy.orm import Session

from vigia.db.base import utcnow
from vigia.errors import Forbidden, Invalid, NotFound
from vigia.users.models import User
from vigia.users.service import find_user, get_user
from vigia.worlds.access import has_role, reachable_world_ids
from vigia.worlds.models import World, WorldConversation, WorldMessage

MAX_TITLE = 120
READ_ONLY = "a received share is read-only"


def title_from(message: str) -> str:
    """A first title: the first line of the first message, trimmed to 120 characters."""
    first = " ".join(message.strip().splitlines()[0].split()) if message.strip() else ""
    return (first[: MAX_TITLE - 1] + "…") if len(first) > MAX_TITLE else (first or "Conversation")


def create(session: Session, user: User, world_id: str, title: str) -> WorldConversation:
    conversation = WorldConversation(owner_id=user.id, world_id=world_id, title=title)
    session.add(conversation)
    session.flush()
    return conversation


def visible(session: Session, user: User, cid: int) -> WorldConversation:
    """The user's conversation or share wrapper ``cid``; 404 for anyone else's, and for one
    over a world the user no longer reaches (no role in its workspace)."""
    conversation = session.get(WorldConversation, cid)
    if conversation is None or conversation.owner_id != user.id:
        raise NotFound(f"conversation {cid} not found")
    world = session.get(World, conversation.world_id)
    if world is None or not has_role(session, user.id, world):
        raise NotFound(f"conversation {cid} not found")
    return conversation


def writable(session: Session, user: User, cid: int) -> WorldConversation:
    """A conversation the user may append to (403 for a received share)."""
    conversation = visible(session, user, cid)
    if conversation.origin == "received_share":
        raise Forbidden(f"{READ_ONLY}: you cannot append to it")
    return conversation


def source_of(session: Session, conversation: WorldConversation) -> WorldConversation:
    """The conversation whose messages a row shows (itself, or the shared original)."""
    if conversation.source_id is None:
        return conversation
    original = session.get(WorldConversation, conversation.source_id)
    if original is None:
        raise NotFound(f"conversation {conversation.id} not found")
    return original


def sharer(session: Session, conversation: WorldConversation) -> str | None:
    if conversation.source_id is None:
        return None
    original = source_of(session, conversation)
    owner = get_user(session, original.owner_id)
    return owner.name if owner else None


def list_for(session: Session, user: User) -> list[WorldConversation]:
    """Own conversations and received shares over the worlds the user reaches, pinned
    first, most recent first."""
    worlds = reachable_world_ids(session, user)
    rows = [
        c
        for c in session.scalars(
            select(WorldConversation).where(WorldConversation.owner_id == user.id)
        )
        if c.world_id in worlds
    ]
    rows.sort(key=lambda c: (not c.pinned, -source_of(session, c).updated_at.timestamp()))
    return rows


def messages(session: Session, conversation: WorldConversation) -> list[WorldMessage]:
    original = source_of(session, conversation)
    return list(
        session.scalars(
            select(WorldMessage)
            .where(WorldMessage.conversation_id == original.id)
            .order_by(WorldMessage.id)
        )
    )


def append(
    session: Session,
    conversation: WorldConversation,
    role: str,
    content: str,
    envelope: dict[str, object] | None = None,
) -> WorldMessage:
    message = WorldMessage(
        conversation_id=conversation.id, role=role, content=content, envelope=envelope
    )
    session.add(message)
    conversation.updated_at = utcnow()
    session.flush()
    return message


def rename(session: Session, user: User, cid: int, title: str) -> WorldConversation:
    conversation = visible(session, user, cid)
    if conversation.origin == "received_share":
        raise Forbidden(f"{READ_ONLY}: only its owner can rename it")
    clean = title.strip()
    if not clean:
        raise Invalid("title must not be blank")
    if len(clean) > MAX_TITLE:
        raise Invalid(f"title must have at most {MAX_TITLE} characters after trimming")
    conversation.title = clean
    session.flush()
    return conversation


def pin(session: Session, user: User, cid: int, pinned: bool) -> WorldConversation:
    conversation = visible(session, user, cid)
    conversation.pinned = pinned
    session.flush()
    return conversation


def delete(session: Session, user: User, cid: int) -> int:
    """Deletes an own conversation (and the wrappers shared from it) or a received wrapper."""
    visible(session, user, cid)
    session.execute(sa_delete(WorldConversation).where(WorldConversation.source_id == cid))
    session.execute(sa_delete(WorldMessage).where(WorldMessage.conversation_id == cid))
    session.execute(sa_delete(WorldConversation).where(WorldConversation.id == cid))
    session.expire_all()
    return cid


def share(session: Session, user: User, cid: int, username: str) -> WorldConversation:
    """Shares an own conversation with ``username``; returns the recipient's wrapper.

    Shares stay inside the world's workspace: a recipient without a role there is refused."""
    conversation = visible(session, user, cid)
    if conversation.origin == "received_share":
        raise Forbidden(f"{READ_ONLY}: it cannot be shared again")
    recipient = find_user(session, username)
    if recipient is None:
        raise NotFound(f"user {username!r} not found")
    if recipient.id == user.id:
        raise Invalid("you cannot share a conversation with yourself")
    world = session.get(World, conversation.world_id)
    if world is None or not has_role(session, recipient.id, world):
        raise Forbidden(
            f"user {username!r} has no role in the workspace of world {conversation.world_id!r}:"
            " conversations are shared only inside it"
        )
    existing = session.scalar(
        select(WorldConversation).where(
            WorldConversation.owner_id == recipient.id, WorldConversation.source_id == cid
        )
    )
    if existing is not None:
        return existing
    wrapper = WorldConversation(
        owner_id=recipient.id,
        world_id=conversation.world_id,
        title=conversation.title,
        origin="received_share",
        source_id=conversation.id,
    )
    session.add(wrapper)
    session.flush()
    return wrapper


def unshare(session: Session, user: User, cid: int, username: str) -> None:
    """Withdraws a share (404 when there is none)."""
    visible(session, user, cid)
    recipient = find_user(session, username)
    wrapper = (
        None
        if recipient is None
        else session.scalar(
            select(WorldConversation).where(
                WorldConversation.owner_id == recipient.id, WorldConversation.source_id == cid
            )
        )
    )
    if wrapper is None:
        raise NotFound(f"conversation {cid} is not shared with {username!r}")
    session.delete(wrapper)
    session.flush()
