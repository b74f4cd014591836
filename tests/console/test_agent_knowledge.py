"""The agent page lists knowledge production does not read yet, and rolls a version back."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.conftest import Tenant
from tests.console.helpers import log_in, make_user


def _upload(client: TestClient, headers: dict[str, str], kb: str, name: str, text: str) -> None:
    response = client.post(
        f"{kb}/documents", files={"file": (name, text.encode(), "text/plain")}, headers=headers
    )
    assert response.status_code in (200, 201), response.text


def test_the_agent_page_lists_pending_knowledge_and_rolls_back(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    workspace = f"/admin/workspaces/{tenant.workspace_name}"
    agent = f"{workspace}/agents/{tenant.agent_slug}"
    kb_id = client.post(
        f"{workspace}/knowledge-bases", json={"name": "Tienda"}, headers=admin_headers
    ).json()["id"]
    kb = f"{workspace}/knowledge-bases/{kb_id}"
    client.patch(agent, json={"knowledge_bases": [kb_id]}, headers=admin_headers)
    _upload(client, admin_headers, kb, "horarios.txt", "La tienda abre a las 9.")
    assert client.post(f"{agent}/publish", headers=admin_headers).json()["version"] == 2
    make_user("ana", tenant.workspace_id, "owner")
    token = log_in(client, "ana")
    page_url = f"/console/w/{tenant.workspace_id}/agents/{tenant.agent_slug}"
    assert "el borrador está publicado" in client.get(page_url).text

    _upload(client, admin_headers, kb, "envios.txt", "Los envíos llegan en 48 horas.")
    page = client.get(page_url).text
    assert "el borrador tiene cambios" in page and 'id="knowledge-changes"' in page
    assert "agregado</span> Tienda / envios.txt" in page
    assert "Sin cambios." not in page

    rolled = client.post(f"{page_url}/versions/1/rollback", data={"csrf": token})
    assert rolled.status_code == 200 and "Publicado como v3" in rolled.text
    # v3 reads what v1 read: nothing of the base yet, so both documents are pending
    assert "agregado</span> Tienda / horarios.txt" in rolled.text
    assert client.post(f"{page_url}/versions/9/rollback", data={"csrf": token}).status_code == 404
    assert client.post(f"{page_url}/versions/1/rollback", data={}).status_code == 403
