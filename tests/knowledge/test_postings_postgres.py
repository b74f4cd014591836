"""PostgreSQL: a knowledge base's postings follow its documents (replaced, deleted, dropped).

Skipped without VIGIA_TEST_DATABASE_URL (see tests/search/test_postgres.py).
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session

from tests.conftest import Tenant, needs_postgres
from tests.search.postings import (
    postings,
    recount,
    sizes_add_up,
    term_ids_match_postings,
    vocabulary,
)
from vigia.db.session import get_engine

pytestmark = needs_postgres


def _consistent(session: Session) -> set[str]:
    """Checks the postings against the index's other tables; gives the terms they hold."""
    held = postings(session)
    chunks = set(session.scalars(text("SELECT id FROM knowledge_chunks")))
    assert {key for _, _, key, _, _ in held} == chunks
    assert vocabulary(session) == recount(session)
    assert term_ids_match_postings(session)
    assert sizes_add_up(session)
    return {term for term, *_ in held}


def test_postings_follow_a_replaced_and_a_deleted_document(
    client: TestClient, admin_headers: dict[str, str], tenant: Tenant
) -> None:
    kb_url = f"/admin/workspaces/{tenant.workspace_id}/knowledge-bases"
    created = client.post(kb_url, json={"name": "seguros"}, headers=admin_headers)
    kb_url += "/" + created.json()["id"]

    def upload(name: str, body: str) -> dict[str, object]:
        files = {"file": (name, body.encode(), "text/plain")}
        response = client.post(f"{kb_url}/documents", files=files, headers=admin_headers)
        assert response.status_code in (200, 201), response.text
        return dict(response.json())

    upload("robo.txt", "El robo total del vehículo se indemniza.\n\nEl granizo no se cubre.")
    grua = upload("grua.txt", "La grúa cubre 300 kilómetros por evento.")
    replaced = upload("robo.txt", "El robo parcial tiene franquicia.")
    assert replaced["replaced"] is True
    with Session(get_engine()) as session:
        terms = _consistent(session)
    assert {"robo", "parcial", "franqui", "grua"} <= terms
    assert not {"graniz", "indemni"} & terms  # only the first version held them

    response = client.delete(f"{kb_url}/documents/{grua['id']}", headers=admin_headers)
    assert response.status_code == 204
    with Session(get_engine()) as session:
        terms = _consistent(session)
    assert "grua" not in terms and "robo" in terms
    found = client.post(
        f"{kb_url}/search", json={"query": "grúa", "mode": "lexical"}, headers=admin_headers
    )
    assert found.json()["passages"] == []

    assert client.delete(kb_url, headers=admin_headers).status_code == 204
    with Session(get_engine()) as session:
        assert postings(session) == set() and vocabulary(session) == {}
        assert session.scalar(text("SELECT count(*) FROM search_postings")) == 0
