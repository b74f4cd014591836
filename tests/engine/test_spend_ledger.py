"""The spend ledger: each stored run adds its cost to its workspace's month, atomically.

The agent's upstream model is a fake (its text does not matter; its usage is priced).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from tests.conftest import Tenant, make_tenant
from tests.engine.priced import PRICED_MODEL, price_the_agent
from vigia.db.base import utcnow
from vigia.db.session import get_engine, session_scope
from vigia.engine.events import TurnResult
from vigia.engine.models import Run
from vigia.engine.pipeline import execute, prepare
from vigia.engine.spend import add_spend, month_key, month_spend
from vigia.engine.turn import TurnRequest
from vigia.llm.function import FunctionModel
from vigia.llm.registry import override_model


@pytest.fixture
def priced_tenant(tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> Iterator[Tenant]:
    """The tenant's agent runs a priced upstream model that answers at once."""
    price_the_agent(tenant, monkeypatch)
    with override_model(FunctionModel(lambda _request: "Listo."), name=PRICED_MODEL):
        yield tenant


def _turn(tenant: Tenant) -> TurnResult:
    request = TurnRequest(tenant.workspace_id, tenant.agent_id, "Hola, ¿cómo estás?")
    result = list(execute(prepare(request)))[-1]
    assert isinstance(result, TurnResult) and result.status == "ok"
    return result


def _spent(workspace_id: str) -> float:
    with session_scope() as session:
        return month_spend(session, workspace_id)


def _runs_cost(workspace_id: str) -> float:
    with session_scope() as session:
        total = session.scalar(
            select(func.sum(Run.cost_usd)).where(Run.workspace_id == workspace_id)
        )
    return float(total or 0.0)


def test_each_stored_turn_adds_its_cost_to_the_month(priced_tenant: Tenant) -> None:
    assert _spent(priced_tenant.workspace_id) == 0.0
    costs = [_turn(priced_tenant).cost_usd for _ in range(3)]
    assert all(cost > 0 for cost in costs)
    assert _spent(priced_tenant.workspace_id) == pytest.approx(sum(costs))
    assert _spent(priced_tenant.workspace_id) == pytest.approx(
        _runs_cost(priced_tenant.workspace_id)
    )


def test_turns_settling_at_once_lose_no_increment(priced_tenant: Tenant) -> None:
    start = threading.Barrier(6)
    results: list[TurnResult] = []

    def turn() -> None:
        start.wait(10)
        results.append(_turn(priced_tenant))

    threads = [threading.Thread(target=turn) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == 6
    assert _spent(priced_tenant.workspace_id) == pytest.approx(sum(r.cost_usd for r in results))


def test_concurrent_increments_on_separate_connections_all_count(tenant: Tenant) -> None:
    """Eight threads, each on its own connection and transaction, add to the same row."""
    threads, increments, usd = 8, 25, 0.125  # exact in binary: the sum must be exact
    start = threading.Barrier(threads)
    errors: list[BaseException] = []

    def add() -> None:
        try:
            start.wait(10)
            for _ in range(increments):
                with get_engine().begin() as connection:
                    add_spend(connection, tenant.workspace_id, usd, utcnow())
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    workers = [threading.Thread(target=add) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    assert errors == []
    assert _spent(tenant.workspace_id) == threads * increments * usd


def test_spend_is_kept_per_workspace_and_month() -> None:
    acme, other = make_tenant("acme"), make_tenant("globex", slug="otro")
    now = utcnow()
    last_month = now.replace(day=1) - timedelta(days=1)
    with get_engine().begin() as connection:
        add_spend(connection, acme.workspace_id, 2.0, last_month)
        add_spend(connection, acme.workspace_id, 0.5, now)
        add_spend(connection, other.workspace_id, 7.0, now)
        add_spend(connection, acme.workspace_id, 0.0, now)  # free runs add nothing
    with session_scope() as session:
        assert month_spend(session, acme.workspace_id) == 0.5
        assert month_spend(session, acme.workspace_id, last_month) == 2.0
        assert month_spend(session, other.workspace_id) == 7.0
    assert month_key(last_month) != month_key(now)
