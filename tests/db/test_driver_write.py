"""``driver_write`` keeps ``write_scope``'s guarantees on the raw DBAPI connection: a failure
anywhere in the transaction stores nothing, a driver error arrives as SQLAlchemy's own
exception type, and a write lock held past the busy timeout is ``Overloaded`` (503)."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from tests.conftest import PG_URL, Tenant
from tests.db.test_rows import conversation_row
from vigia.config import get_settings
from vigia.conversations.models import Conversation
from vigia.db import session as db_session
from vigia.db.base import new_id, table_of
from vigia.db.driver_write import driver_write
from vigia.db.rows import insert_rows
from vigia.errors import Overloaded


def _stored(conversation_id: str) -> int:
    with db_session.session_scope() as session:
        query = select(func.count()).where(Conversation.id == conversation_id)
        return int(session.scalar(query) or 0)


def test_a_committed_driver_write_is_stored(tenant: Tenant) -> None:
    conversation_id = new_id()
    with driver_write() as write:
        insert_rows(write, table_of(Conversation), [conversation_row(tenant, conversation_id)])
    assert _stored(conversation_id) == 1


def test_a_driver_error_rolls_back_the_rows_before_it_and_is_sqlalchemys_own(
    tenant: Tenant,
) -> None:
    first, duplicate = new_id(), new_id()
    with driver_write() as write:
        insert_rows(write, table_of(Conversation), [conversation_row(tenant, duplicate)])
    with pytest.raises(IntegrityError) as raised, driver_write() as write:
        insert_rows(write, table_of(Conversation), [conversation_row(tenant, first)])
        insert_rows(write, table_of(Conversation), [conversation_row(tenant, duplicate)])
    assert _stored(first) == 0
    assert _stored(duplicate) == 1
    assert "UNIQUE" in str(raised.value).upper() or "duplicate" in str(raised.value)
    assert tenant.workspace_id not in str(raised.value)  # the parameters stay out


def test_an_exception_inside_the_transaction_stores_nothing(tenant: Tenant) -> None:
    conversation_id = new_id()
    with pytest.raises(RuntimeError), driver_write() as write:
        insert_rows(write, table_of(Conversation), [conversation_row(tenant, conversation_id)])
        raise RuntimeError("crash between two writes")
    assert _stored(conversation_id) == 0


@pytest.mark.skipif(bool(PG_URL), reason="SQLite's file lock")
def test_a_write_lock_held_past_the_busy_timeout_is_overloaded(
    tenant: Tenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_session, "BUSY_TIMEOUT_MS", 200)
    db_session.writer_engine_for.cache_clear()
    conversation_id = new_id()
    other = sqlite3.connect(get_settings().data_dir / "vigia.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        with pytest.raises(Overloaded) as raised, driver_write() as write:
            insert_rows(write, table_of(Conversation), [conversation_row(tenant, conversation_id)])
    finally:
        other.execute("ROLLBACK")
        other.close()
        db_session.writer_engine_for.cache_clear()
    assert raised.value.headers == {"Retry-After": "2"}
    assert _stored(conversation_id) == 0
