"""Retention purges: whole idle conversations, stray runs and reviews; nothing newer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import exists, func, select

from tests.conftest import Tenant
from vigia.conversations.models import Conversation, Message
from vigia.db.session import session_scope
from vigia.engine import month_start
from vigia.engine.models import Run, RunStage
from vigia.errors import Invalid
from vigia.operations.retention import cutoff_of, purge_before
from vigia.review.models import OutputReview

CUTOFF = month_start() - timedelta(days=40)
OLD = CUTOFF - timedelta(days=5)
NEW = CUTOFF + timedelta(days=1)


def _run(tenant: Tenant, conversation: str | None, when: datetime) -> str:
    run_id = str(uuid.uuid4())
    with session_scope() as session:
        session.add(
            Run(
                id=run_id,
                workspace_id=tenant.workspace_id,
                agent_id=tenant.agent_id,
                conversation_id=conversation,
                created_at=when,
            )
        )
        session.flush()
        for seq, name in enumerate(("budget", "generation")):
            session.add(
                RunStage(
                    run_id=run_id, seq=seq, name=name, started_at=when, duration_ms=1, outcome="ok"
                )
            )
    return run_id


def _review(tenant: Tenant, conversation: str | None, when: datetime) -> str:
    with session_scope() as session:
        row = OutputReview(
            workspace_id=tenant.workspace_id,
            agent_id=tenant.agent_id,
            turn_key=str(uuid.uuid4()),
            attempt=1,
            conversation_id=conversation,
            verdict="pass",
            action="send",
            result={},
            created_at=when,
        )
        session.add(row)
        session.flush()
        return row.id


def _conversation(tenant: Tenant, started: datetime, *turns: datetime) -> str:
    """A conversation opened at ``started`` with one run and two messages per turn time."""
    conversation_id = str(uuid.uuid4())
    with session_scope() as session:
        session.add(
            Conversation(
                id=conversation_id,
                workspace_id=tenant.workspace_id,
                agent_id=tenant.agent_id,
                created_at=started,
                updated_at=started,
            )
        )
    for when in turns:
        run_id = _run(tenant, conversation_id, when)
        with session_scope() as session:
            for role in ("user", "assistant"):
                session.add(
                    Message(
                        conversation_id=conversation_id,
                        role=role,
                        content="hola",
                        run_id=run_id,
                        created_at=when,
                    )
                )
    return conversation_id


def _exists(model: type, ident: str) -> bool:
    with session_scope() as session:
        return session.get(model, ident) is not None


def _dangling() -> dict[str, int]:
    """Rows that point at a row that is gone."""
    with session_scope() as session:
        count = lambda q: int(session.scalar(select(func.count()).select_from(q.subquery())) or 0)  # noqa: E731
        return {
            "stages": count(select(RunStage.id).where(~exists().where(Run.id == RunStage.run_id))),
            "messages": count(
                select(Message.id).where(
                    ~exists().where(Conversation.id == Message.conversation_id)
                )
            ),
            "message_runs": count(
                select(Message.id).where(
                    Message.run_id.is_not(None), ~exists().where(Run.id == Message.run_id)
                )
            ),
            "runs": count(
                select(Run.id).where(
                    Run.conversation_id.is_not(None),
                    ~exists().where(Conversation.id == Run.conversation_id),
                )
            ),
            "reviews": count(
                select(OutputReview.id).where(
                    OutputReview.conversation_id.is_not(None),
                    ~exists().where(Conversation.id == OutputReview.conversation_id),
                )
            ),
        }


def test_purge_removes_old_things_whole_and_touches_nothing_newer(tenant: Tenant) -> None:
    idle = _conversation(tenant, OLD, OLD, OLD + timedelta(hours=1))
    idle_review = _review(tenant, idle, OLD)
    revived = _conversation(tenant, OLD, OLD, NEW)  # old start, a turn after the cutoff
    revived_review = _review(tenant, revived, OLD)
    fresh = _conversation(tenant, NEW, NEW)
    stray_old_run = _run(tenant, str(uuid.uuid4()), OLD)
    stray_new_run = _run(tenant, None, NEW)
    stray_old_review = _review(tenant, None, OLD)
    stray_new_review = _review(tenant, None, NEW)

    result = purge_before(CUTOFF, batch=1)

    assert result == {
        "before": CUTOFF.isoformat(),
        "conversations": 1,
        "messages": 4,
        "runs": 3,
        "run_stages": 6,
        "reviews": 2,
        "budget_reservations": 0,
    }
    assert not _exists(Conversation, idle) and not _exists(OutputReview, idle_review)
    assert not _exists(Run, stray_old_run) and not _exists(OutputReview, stray_old_review)
    for model, ident in [
        (Conversation, revived),
        (Conversation, fresh),
        (OutputReview, revived_review),
        (Run, stray_new_run),
        (OutputReview, stray_new_review),
    ]:
        assert _exists(model, ident), (model, ident)
    with session_scope() as session:
        kept = session.scalar(
            select(func.count()).where(Message.conversation_id == revived)  # old turn kept too
        )
        assert kept == 4
    assert _dangling() == dict.fromkeys(
        ("stages", "messages", "message_runs", "runs", "reviews"), 0
    )
    assert purge_before(CUTOFF)["conversations"] == 0


def test_a_cutoff_inside_this_month_is_refused(tenant: Tenant) -> None:
    fresh = _conversation(tenant, datetime.now(UTC), datetime.now(UTC))
    with pytest.raises(Invalid, match="first of this month"):
        purge_before(datetime.now(UTC))
    assert _exists(Conversation, fresh)


def test_cutoff_dates_are_utc() -> None:
    assert cutoff_of("2025-01-31") == datetime(2025, 1, 31, tzinfo=UTC)
    assert cutoff_of("2025-01-31T10:00:00") == datetime(2025, 1, 31, 10, tzinfo=UTC)
    with pytest.raises(Invalid, match="ISO date"):
        cutoff_of("last tuesday")


def test_purge_command_prints_json(tenant: Tenant) -> None:
    idle = _conversation(tenant, OLD, OLD)
    out = subprocess.run(
        [sys.executable, "-m", "vigia.cli", "purge", "--before", CUTOFF.isoformat(), "--json"],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["conversations"] == 1 and result["runs"] == 1
    assert not _exists(Conversation, idle)
