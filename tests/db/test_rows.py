"""``insert_rows`` stores exactly what SQLAlchemy's own ``insert`` stores (SQLite, and
PostgreSQL under ``scripts/with-postgres``), fills scalar defaults, refuses the rest."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Table, insert, text

from tests.conftest import Tenant
from vigia.conversations.models import Conversation, Message
from vigia.db.base import new_id, table_of
from vigia.db.rows import insert_rows
from vigia.db.session import write_scope
from vigia.engine.models import Run, RunStage

AT = datetime(2026, 12, 2, 6, 30, 15, 123456, tzinfo=UTC)


def _stored(table: Table, column: str, value: str) -> list[tuple[Any, ...]]:
    """The rows as the database holds them (no type processing on the way out)."""
    with write_scope() as session:
        result = session.connection().execute(
            text(f"SELECT * FROM {table.name} WHERE {column} = :v ORDER BY 1"), {"v": value}
        )
        return [tuple(row) for row in result]


def _both_ways(table: Table, rows: list[dict[str, Any]], key: str, prepare: Any) -> None:
    """Stores ``rows`` once through each path (``prepare`` gives each its own ids) and
    compares what the database holds, ids aside."""
    stored = []
    for store in ("rows", "core"):
        ids = prepare()
        own = [{**row, **ids} for row in rows]
        with write_scope() as session:
            connection = session.connection()
            if store == "rows":
                insert_rows(connection, table, own)
            else:
                connection.execute(insert(table), own)
        stored.append((ids, _stored(table, key, ids[key])))
    (ids_a, rows_a), (_, rows_b) = stored
    assert rows_a, "nothing stored"

    skip = {"id", *ids_a}

    def without_ids(row: tuple[Any, ...]) -> list[Any]:
        return [v for c, v in zip(table.columns, row, strict=True) if c.key not in skip]

    assert [without_ids(r) for r in rows_a] == [without_ids(r) for r in rows_b]


def conversation_row(tenant: Tenant, conversation_id: str) -> dict[str, Any]:
    """A complete ``conversations`` row of ``tenant``'s agent."""
    return {
        "id": conversation_id,
        "workspace_id": tenant.workspace_id,
        "agent_id": tenant.agent_id,
        "channel": "openai",
        "handoff": False,
        "created_at": AT,
        "updated_at": AT,
    }


def _conversation(tenant: Tenant) -> str:
    conversation_id = new_id()
    with write_scope() as session:
        row = conversation_row(tenant, conversation_id)
        insert_rows(session.connection(), table_of(Conversation), [row])
    return conversation_id


def test_conversation_rows_match_and_take_the_scalar_defaults(tenant: Tenant) -> None:
    row = {
        "workspace_id": tenant.workspace_id,
        "agent_id": tenant.agent_id,
        "channel": "console",
        "handoff": True,
        "created_at": AT,
        "updated_at": AT,
    }  # external_id, assigned_to and assigned_at left to their defaults (None)
    _both_ways(table_of(Conversation), [row], "id", lambda: {"id": new_id()})


def test_message_rows_match_json_booleans_and_times(tenant: Tenant) -> None:
    calls = [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]
    rows: list[dict[str, Any]] = [
        {
            "role": "user",
            "content": "¿Qué cubre la póliza? ñ ü 😀",
            "tool_calls": None,
            "tool_call_id": None,
            "run_id": "r1",
            "created_at": AT,
            "moderation": "flagged",
            "guardrails": ["injection"],
            "flagged": True,
        },
        {
            "role": "assistant",
            "content": "",
            "tool_calls": calls,
            "tool_call_id": "c1",
            "run_id": None,
            "created_at": AT,
            "moderation": None,
            "guardrails": None,
            "flagged": False,
        },
    ]
    _both_ways(
        table_of(Message),
        rows,
        "conversation_id",
        lambda: {"conversation_id": _conversation(tenant)},
    )


def test_run_and_stage_rows_match(tenant: Tenant) -> None:
    run = {
        "workspace_id": tenant.workspace_id,
        "agent_id": tenant.agent_id,
        "conversation_id": None,
        "key_id": None,
        "channel": "openai",
        "env": "production",
        "version": 1,
        "model": "mock",
        "streamed": False,
        "duration_ms": 1.25,
        "status": "ok",
        "prompt_tokens": 11,
        "completion_tokens": 7,
        "cost_usd": 0.000125,
        "budget_alert": False,
        "error": None,
        "trace_id": None,
        "created_at": AT,
    }
    _both_ways(table_of(Run), [run], "id", lambda: {"id": new_id()})
    stages = [
        {"seq": i, "name": name, "started_at": AT, "duration_ms": 0.5, "outcome": "ok", "detail": d}
        for i, (name, d) in enumerate([("budget", {"spent_usd": 0.0}), ("generation", {})])
    ]

    def own_run() -> dict[str, str]:
        run_id = new_id()
        with write_scope() as session:
            insert_rows(session.connection(), table_of(Run), [{**run, "id": run_id}])
        return {"run_id": run_id}

    _both_ways(table_of(RunStage), stages, "run_id", own_run)


def test_a_left_out_column_without_a_scalar_default_is_refused(tenant: Tenant) -> None:
    row = {"run_id": "r", "seq": 0, "name": "budget", "started_at": AT, "outcome": "ok"}
    # ``detail`` defaults to ``dict()``, a callable: the caller must give it
    with write_scope() as session, pytest.raises(ValueError, match=r"run_stages\.detail"):
        insert_rows(session.connection(), table_of(RunStage), [row])
