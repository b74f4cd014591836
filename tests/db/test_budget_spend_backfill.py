"""Migration ``0028_budget_spend`` fills the spend ledger from the runs already stored: one
row per workspace and UTC month, free runs left out (checked by migrating back below it and
up again, on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic import command
from sqlalchemy import insert, select

from tests.conftest import Tenant, make_tenant
from vigia.db.base import new_id, table_of
from vigia.db.migrate import alembic_config
from vigia.db.session import get_engine, session_scope
from vigia.engine.models import BudgetSpend, Run


def _run(tenant: Tenant, cost_usd: float, at: datetime) -> dict[str, object]:
    return {
        "id": new_id(),
        "workspace_id": tenant.workspace_id,
        "agent_id": tenant.agent_id,
        "cost_usd": cost_usd,
        "created_at": at,
    }


def test_the_upgrade_sums_existing_runs_per_workspace_and_month(tenant: Tenant) -> None:
    other = make_tenant("globex", slug="otro")
    november = datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC)
    december = datetime(2026, 12, 1, 0, 0, 0, tzinfo=UTC)
    runs = [
        _run(tenant, 0.25, november),
        _run(tenant, 0.5, november),
        _run(tenant, 1.0, december),
        _run(tenant, 0.0, december),
        _run(other, 0.0, november),
        _run(other, 2.0, december),
    ]
    with session_scope() as session:
        session.execute(insert(table_of(Run)), runs)
    config = alembic_config(str(get_engine().url.render_as_string(hide_password=False)))
    get_engine().dispose()
    command.downgrade(config, "0027_conversation_assignment")
    command.upgrade(config, "head")
    get_engine().dispose()
    with session_scope() as session:
        rows = session.execute(
            select(BudgetSpend.workspace_id, BudgetSpend.month, BudgetSpend.spent_usd)
        ).all()
    assert sorted(rows) == sorted(
        [
            (tenant.workspace_id, "2026-11", 0.75),
            (tenant.workspace_id, "2026-12", 1.0),
            (other.workspace_id, "2026-12", 2.0),
        ]
    )
