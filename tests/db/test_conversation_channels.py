"""Migration ``0023_conversation_channels`` gives existing conversations their channel: the
channel of their first run, ``review`` for an external agent's thread without runs, else
``openai`` (checked by migrating back below it and up again, on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

from alembic import command
from sqlalchemy import insert, select

from tests.conftest import Tenant
from vigia.conversations.models import Conversation
from vigia.conversations.service import open_external_conversation, record_exchange
from vigia.db.base import new_id, table_of, utcnow
from vigia.db.migrate import alembic_config
from vigia.db.session import get_engine, session_scope
from vigia.engine.models import Run


def _with_runs(tenant: Tenant, *channels: str) -> str:
    """A conversation (stored as ``openai``) whose runs came from ``channels``, in order."""
    cid = new_id()
    start = utcnow()
    with session_scope() as session:
        record_exchange(session, cid, [], new_id(), open_for=(tenant.workspace_id, tenant.agent_id))
        for n, channel in enumerate(channels):
            run = {
                "id": new_id(),
                "workspace_id": tenant.workspace_id,
                "agent_id": tenant.agent_id,
                "conversation_id": cid,
                "channel": channel,
                "created_at": start + timedelta(seconds=n),
            }
            session.execute(insert(table_of(Run)), [run])
    return cid


def test_existing_conversations_get_the_channel_of_their_first_run(tenant: Tenant) -> None:
    evaluation = _with_runs(tenant, "eval", "openai")
    playground = _with_runs(tenant, "console")
    silent = _with_runs(tenant)
    with session_scope() as session:
        thread = open_external_conversation(
            session, tenant.workspace_id, tenant.agent_id, "hilo-9"
        ).id
    config = alembic_config(str(get_engine().url.render_as_string(hide_password=False)))
    get_engine().dispose()
    command.downgrade(config, "0022_message_authors")
    command.upgrade(config, "head")
    get_engine().dispose()
    with session_scope() as session:
        channels = dict(session.execute(select(Conversation.id, Conversation.channel)).all())
    assert channels == {
        evaluation: "eval",
        playground: "console",
        silent: "openai",
        thread: "review",
    }
