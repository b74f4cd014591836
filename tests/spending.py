"""A run that cost something, stored as the engine stores runs (with its spend)."""

from __future__ import annotations

from tests.conftest import Tenant
from vigia.db.base import new_id, utcnow
from vigia.db.session import write_scope
from vigia.engine.spend import store_run


def spend(tenant: Tenant, usd: float) -> None:
    """Stores a run of ``tenant``'s agent that cost ``usd``, its spend in the month's ledger."""
    run = {
        "id": new_id(),
        "workspace_id": tenant.workspace_id,
        "agent_id": tenant.agent_id,
        "cost_usd": usd,
        "created_at": utcnow(),
    }
    with write_scope() as session:
        store_run(session, run, [])
