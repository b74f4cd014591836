"""Console forms (urlencoded and multipart) whose fields hold NUL: PostgreSQL text cannot
store it (a 500 there; SQLite stored it). Each is the console's 422 error page naming the
field, and stores nothing; file contents are the parsers' business, file names are fields."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.conftest import Tenant
from tests.console.helpers import csrf_of, log_in, make_user
from tests.stored import row_counts
from vigia.agents.models import Agent
from vigia.db.session import session_scope
from vigia.knowledge.models import KnowledgeBase

BOUNDARY = "vigia-form-text"


def _multipart(token: str, filename: bytes) -> bytes:
    """A form with the CSRF field and one file, its name written raw (httpx escapes NUL)."""
    return b"".join(
        [
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n'.encode(),
            token.encode(),
            f'\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '.encode(),
            b'filename="' + filename + b'"\r\nContent-Type: text/markdown\r\n\r\n',
            b"# Horarios\n\nDe 9 a 18.",
            f"\r\n--{BOUNDARY}--\r\n".encode(),
        ]
    )


def _owner(client: TestClient, tenant: Tenant) -> tuple[str, str]:
    make_user("ana", tenant.workspace_id, "owner")
    return f"/console/w/{tenant.workspace_id}", log_in(client, "ana")


def test_nul_in_the_login_form_is_422(client: TestClient, tenant: Tenant) -> None:
    token = csrf_of(client)
    before = row_counts()
    response = client.post(
        "/console/login",
        data={"username": "ana\x00", "password": "x", "csrf": token},
        follow_redirects=False,
    )
    assert response.status_code == 422
    assert "username" in response.text and "NUL" in response.text
    assert row_counts() == before


def test_nul_in_the_agent_form_is_422_and_keeps_the_draft(
    client: TestClient, tenant: Tenant
) -> None:
    base, token = _owner(client, tenant)
    with session_scope() as session:
        draft = session.scalars(select(Agent.draft)).one()
    response = client.post(
        f"{base}/agents/{tenant.agent_slug}/draft",
        data={"csrf": token, "name": "Asistente", "instructions": "Respondé\x00 corto."},
    )
    assert response.status_code == 422
    assert "instructions" in response.text
    with session_scope() as session:
        assert session.scalars(select(Agent.draft)).one() == draft


def test_nul_in_a_multipart_field_or_file_name_is_422(client: TestClient, tenant: Tenant) -> None:
    base, token = _owner(client, tenant)
    client.post(f"{base}/knowledge", data={"csrf": token, "name": "manual"})
    with session_scope() as session:
        kb_id = session.scalars(select(KnowledgeBase.id)).one()
    before = row_counts()
    named = client.post(
        f"{base}/knowledge/{kb_id}/documents",
        content=_multipart(token, "guía\x00.md".encode()),
        headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
    )
    assert named.status_code == 422 and "file" in named.text
    field = client.post(
        f"{base}/knowledge",
        data={"csrf": token, "name": "otro\x00manual"},
        files={"unused": ("a.txt", b"a")},
    )
    assert field.status_code == 422 and "name" in field.text
    assert row_counts() == before
    clean = client.post(
        f"{base}/knowledge/{kb_id}/documents",
        content=_multipart(token, "guía.md".encode()),
        headers={"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"},
    )
    assert clean.status_code == 200 and "guía.md" in clean.text
