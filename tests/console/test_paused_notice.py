"""The Agentes pages say when the monthly budget has paused the workspace's agents, with a
link to Uso to raise it; a budget not reached, or one that only alerts, shows nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user
from tests.spending import spend

BANNER = 'id="budget-paused"'


def _budget(client: TestClient, base: str, token: str, action: str) -> None:
    """Sets a monthly budget of 1 USD through the Uso form."""
    form = {"csrf": token, "budget_usd": "1", "action": action}
    set_ = client.post(f"{base}/usage/budget", data=form, follow_redirects=False)
    assert set_.status_code == 303


def _pages(client: TestClient, base: str, tenant: Tenant) -> list[str]:
    return [
        client.get(f"{base}/agents").text,
        client.get(f"{base}/agents/{tenant.agent_slug}").text,
    ]


def test_a_reached_pausing_budget_shows_the_banner_on_the_agents_pages(
    client: TestClient, tenant: Tenant
) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    token = log_in(client, "ana")
    base = f"/console/w/{tenant.workspace_id}"
    _budget(client, base, token, "pause")
    spend(tenant, 0.5)
    assert all(BANNER not in html for html in _pages(client, base, tenant))
    spend(tenant, 0.75)
    for html in _pages(client, base, tenant):
        assert BANNER in html
        assert "Los agentes de este espacio están en pausa" in html
        assert f'<a href="{base}/usage">Subir el presupuesto en Uso</a>' in html
    client.cookies.set("vigia_lang", "en", path="/console")
    assert "This workspace&#39;s agents are paused" in client.get(f"{base}/agents").text
    _budget(client, base, token, "alert")
    assert all(BANNER not in html for html in _pages(client, base, tenant))


def test_no_budget_shows_no_banner(client: TestClient, tenant: Tenant) -> None:
    make_user("vera", tenant.workspace_id, "viewer")
    log_in(client, "vera")
    spend(tenant, 100.0)
    base = f"/console/w/{tenant.workspace_id}"
    assert all(BANNER not in html for html in _pages(client, base, tenant))
