"""Concurrent turns reserve their expected cost, so they cannot overshoot a pausing budget.

The agent's upstream model is a fake (its text does not matter) that waits until the test
lets it answer, so one turn is provably in flight while the next one asks for budget.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from tests.conftest import Tenant
from tests.engine.priced import PRICED_MODEL, price_the_agent
from vigia.db.session import session_scope
from vigia.engine.events import TurnResult
from vigia.engine.models import BudgetReservation, Run
from vigia.engine.pipeline import execute, prepare
from vigia.engine.turn import TurnRequest
from vigia.errors import UpstreamError
from vigia.llm.function import FunctionModel
from vigia.llm.protocol import ModelRequest
from vigia.llm.registry import override_model
from vigia.workspaces.service import find_workspace, set_budget


@pytest.fixture
def priced_tenant(tenant: Tenant, monkeypatch: pytest.MonkeyPatch) -> Tenant:
    """The tenant's agent runs a priced upstream model (at most ~0.8 USD a turn)."""
    price_the_agent(tenant, monkeypatch)
    with session_scope() as session:
        set_budget(session, find_workspace(session, tenant.workspace_id), 0.5, "pause")
    return tenant


@pytest.fixture
def gate() -> Iterator[threading.Event]:
    """A model that answers only once the returned event is set."""
    released = threading.Event()

    def answer(_request: ModelRequest) -> str:
        assert released.wait(10)
        return "Listo."

    with override_model(FunctionModel(answer), name=PRICED_MODEL):
        yield released


def _turn(tenant: Tenant) -> TurnResult:
    request = TurnRequest(tenant.workspace_id, tenant.agent_id, "Hola, ¿cómo estás?")
    events = list(execute(prepare(request)))
    result = events[-1]
    assert isinstance(result, TurnResult)
    return result


def _reservations() -> int:
    with session_scope() as session:
        return session.scalar(select(func.count()).select_from(BudgetReservation)) or 0


def test_a_turn_in_flight_holds_budget_and_settles_to_its_real_cost(
    priced_tenant: Tenant, gate: threading.Event
) -> None:
    results: list[TurnResult] = []
    first = threading.Thread(target=lambda: results.append(_turn(priced_tenant)))
    first.start()
    for _ in range(200):
        if _reservations():
            break
        threading.Event().wait(0.02)
    assert _reservations() == 1
    # The first turn may cost up to 0.8 USD: a second one now would overshoot 0.5.
    assert _turn(priced_tenant).status == "budget_exceeded"
    gate.set()
    first.join(10)
    assert results[0].status == "ok" and 0 < results[0].cost_usd < 0.5
    assert _reservations() == 0
    # Settled at its real cost, the budget has room again.
    assert _turn(priced_tenant).status == "ok"
    with session_scope() as session:
        statuses = session.scalars(select(Run.status).order_by(Run.created_at)).all()
    assert sorted(statuses) == ["budget_exceeded", "ok", "ok"]


def test_a_failed_model_releases_its_reservation(priced_tenant: Tenant) -> None:
    def fail(_request: ModelRequest) -> str:
        raise UpstreamError("the upstream answered 500")

    with override_model(FunctionModel(fail), name=PRICED_MODEL), pytest.raises(UpstreamError):
        _turn(priced_tenant)
    assert _reservations() == 0
