"""Worlds inputs that used to store NUL or answer 500: a UTF-16 chat body with ``\\u0000``
(stored on SQLite, a 500 on PostgreSQL after the turn ran), a blank ``GET /chat/stream``
message (pydantic's error escaped the handler: a 500), NUL in a personal file's form field.
Each is a 422 in FastAPI's shape naming the field, and stores nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.stored import row_counts
from vigia.worlds.ingest.indexer import IndexReport

W = "payroll-2024"
NUL = "String should not contain a NUL character (\\u0000)"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-32-be"])
def test_a_utf16_or_utf32_chat_with_nul_is_422(
    alice: TestClient, payroll: IndexReport, encoding: str
) -> None:
    body = f'{{"message": "¿Cuándo se paga el aguinaldo?\\u0000", "version": "{W}"}}'
    before = row_counts()
    response = alice.post(
        "/chat", content=body.encode(encoding), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert response.json() == {
        "detail": [{"loc": ["body", "message"], "msg": NUL, "type": "string_nul"}]
    }
    assert row_counts() == before


@pytest.mark.parametrize("message", ["\u3000", "   ", "\n\t"])
def test_a_blank_stream_message_is_422(
    alice: TestClient, payroll: IndexReport, message: str
) -> None:
    before = row_counts()
    response = alice.get("/chat/stream", params={"message": message, "version": W})
    assert response.status_code == 422, response.text
    (error,) = response.json()["detail"]
    assert error["loc"] == ["query", "message"]
    assert "x-request-id" in response.headers
    assert row_counts() == before


def test_nul_in_a_personal_file_field_is_422(alice: TestClient) -> None:
    before = row_counts()
    response = alice.post(
        "/personal/files",
        data={"path": "notas\x00.txt"},
        files={"file": ("notas.txt", b"hola")},
    )
    assert response.status_code == 422, response.text
    assert response.json() == {
        "detail": [{"loc": ["body", "path"], "msg": NUL, "type": "string_nul"}]
    }
    assert row_counts() == before
    assert alice.get("/personal/files").json() == {"files": []}
