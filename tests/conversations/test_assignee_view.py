"""Who holds a conversation, as the admin API and ``vigia conversation show --json`` say it:
null before anyone takes it, the operator (id and name) and when once one takes it through
the console's "Tomar", null again once it is given back to the agent."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select
from typer.testing import CliRunner

from tests.conftest import ADMIN_TOKEN, Tenant
from tests.console.helpers import log_in, make_user
from vigia.cli import app
from vigia.db.session import session_scope
from vigia.users.models import User

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def _conversation(client: TestClient, tenant: Tenant) -> str:
    answer = client.post(
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
        json={"model": tenant.agent_slug, "messages": [{"role": "user", "content": "Hola"}]},
    )
    assert answer.status_code == 200, answer.text
    return str(answer.json()["sherlock"]["conversation_id"])


def _admin(client: TestClient, tenant: Tenant, conversation: str) -> dict[str, Any]:
    found = client.get(
        f"/admin/workspaces/{tenant.workspace_id}/conversations/{conversation}", headers=ADMIN
    )
    assert found.status_code == 200, found.text
    view: dict[str, Any] = found.json()
    return view


def _cli(tenant: Tenant, conversation: str) -> dict[str, Any]:
    shown = CliRunner().invoke(
        app,
        ["conversation", "show", conversation, "--workspace", tenant.workspace_name, "--json"],
    )
    assert shown.exit_code == 0, shown.output
    view: dict[str, Any] = json.loads(shown.stdout)
    return view


def test_admin_api_and_cli_show_who_took_the_conversation(
    client: TestClient, tenant: Tenant
) -> None:
    conversation = _conversation(client, tenant)
    for view in (_admin(client, tenant, conversation), _cli(tenant, conversation)):
        assert (view["assigned_to"], view["assigned_at"]) == (None, None)
    make_user("oscar", tenant.workspace_id, "operator")
    token = log_in(client, "oscar")
    base = f"/console/w/{tenant.workspace_id}"
    taken = client.post(f"{base}/conversations/{conversation}/handoff", data={"csrf": token})
    assert taken.status_code == 200
    with session_scope() as session:
        oscar = session.scalars(select(User.id).where(User.name == "oscar")).one()
    for view in (_admin(client, tenant, conversation), _cli(tenant, conversation)):
        assert view["handoff"] is True
        assert view["assigned_to"] == {"id": oscar, "name": "oscar"}
        assert datetime.fromisoformat(view["assigned_at"]).utcoffset() is not None
    client.post(f"{base}/conversations/{conversation}/release", data={"csrf": token})
    for view in (_admin(client, tenant, conversation), _cli(tenant, conversation)):
        assert (view["assigned_to"], view["assigned_at"]) == (None, None)
