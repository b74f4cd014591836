"""Inputs of the worlds surface that used to answer 500: lone surrogates in scope paths, ids
past the id column's SQL INTEGER, personal file names no folder can hold. Each is a 4xx in
FastAPI's shape (``detail`` list) or ``{"detail": "…"}``, and stores nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import BigInteger

from tests.stored import row_counts
from vigia.config import get_settings
from vigia.kit.fields import ROW_ID_MAX, SQL_BIGINT_MAX, SQL_INTEGER_MAX
from vigia.worlds.ingest.indexer import IndexReport
from vigia.worlds.models import WorldConversation

W = "payroll-2024"
TOO_BIG = 2**63
LARGEST = 2**31 - 1  # conversation ids are SQL INTEGER: 32-bit on PostgreSQL
ID_BOUND_MSG = "Input should be less than or equal to 2147483647"
SURROGATE_MSG = "String should not contain a lone surrogate (a \\ud800-\\udfff escape)"


def _personal_folder() -> Path:
    return get_settings().data_dir / "worlds" / "personal"


def _stored_files() -> list[str]:
    root = _personal_folder()
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/chat", '{"message": "hola", "version": "%s", "scope_paths": ["hola \\ud800 mundo"]}'),
        ("/qa/run", '{"question": "hola", "version": "%s", "scope_paths": ["\\udc00"]}'),
        ("/troubleshoot/run", '{"symptom": "hola", "version": "%s", "scope_paths": ["\\ud800"]}'),
    ],
)
def test_lone_surrogate_in_scope_paths_is_422(
    alice: TestClient, payroll: IndexReport, path: str, body: str
) -> None:
    before = row_counts()
    response = alice.post(
        path, content=(body % W).encode(), headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json() == {
        "detail": [
            {"loc": ["body", "scope_paths", 0], "msg": SURROGATE_MSG, "type": "string_unicode"}
        ]
    }
    assert row_counts() == before


def test_scope_path_part_longer_than_a_file_name_is_422(
    alice: TestClient, payroll: IndexReport
) -> None:
    before = row_counts()
    long_part = {"message": "hola", "version": W, "scope_paths": ["0" * 300]}
    expected = {"detail": "each part of a path is limited to 255 bytes"}
    response = alice.post("/chat", json=long_part)
    assert (response.status_code, response.json()) == (422, expected)
    stream = alice.get("/chat/stream", params=long_part)
    assert (stream.status_code, stream.json()) == (422, expected)
    assert row_counts() == before


def test_nul_in_chat_message_is_422(alice: TestClient, payroll: IndexReport) -> None:
    before = row_counts()
    nul = "String should not contain a NUL character (\\u0000)"
    response = alice.post("/chat", json={"message": "hola \x00", "version": W})
    assert response.status_code == 422
    assert response.json() == {
        "detail": [{"loc": ["body", "message"], "msg": nul, "type": "string_nul"}]
    }
    stream = alice.get("/chat/stream", params={"message": "hola \x00", "version": W})
    assert stream.status_code == 422
    assert stream.json() == {
        "detail": [{"loc": ["query", "message"], "msg": nul, "type": "string_nul"}]
    }
    assert row_counts() == before


def test_conversation_id_past_the_id_column_is_422_on_chat(
    alice: TestClient, payroll: IndexReport
) -> None:
    before = row_counts()
    response = alice.post(
        "/chat", json={"message": "hola", "version": W, "conversation_id": TOO_BIG}
    )
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", "conversation_id"] and error["msg"] == ID_BOUND_MSG
    stream = alice.get(
        "/chat/stream", params={"message": "hola", "version": W, "conversation_id": TOO_BIG}
    )
    assert stream.status_code == 422
    (error,) = stream.json()["detail"]
    assert error["loc"] == ["query", "conversation_id"] and error["msg"] == ID_BOUND_MSG
    assert row_counts() == before


def test_conversation_id_true_is_not_conversation_1(
    alice: TestClient, payroll: IndexReport
) -> None:
    response = alice.post("/chat", json={"message": "hola", "version": W, "conversation_id": True})
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "int_type"


@pytest.mark.parametrize(
    ("method", "route", "body"),
    [
        ("GET", "/conversations/{cid}", None),
        ("PATCH", "/conversations/{cid}", {"title": "nuevo"}),
        ("DELETE", "/conversations/{cid}", None),
        ("POST", "/conversations/{cid}/pin", {"pinned": True}),
        ("POST", "/conversations/{cid}/share", {"username": "bob"}),
        ("DELETE", "/conversations/{cid}/share/bob", None),
    ],
)
def test_conversation_routes_refuse_ids_past_the_id_column(
    alice: TestClient, method: str, route: str, body: dict[str, object] | None
) -> None:
    response = alice.request(method, route.format(cid=TOO_BIG), json=body)
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["path", "cid"] and error["msg"] == ID_BOUND_MSG
    for beyond in (LARGEST + 1, 2**63 - 1):
        response = alice.request(method, route.format(cid=beyond), json=body)
        assert response.status_code == 422
    largest = alice.request(method, route.format(cid=LARGEST), json=body)
    assert largest.status_code == 404
    assert largest.json() == {"detail": f"conversation {LARGEST} not found"}


def test_the_id_bound_is_the_id_column_range() -> None:
    column = WorldConversation.__table__.c.id
    expected = SQL_BIGINT_MAX if isinstance(column.type, BigInteger) else SQL_INTEGER_MAX
    assert expected == ROW_ID_MAX


def test_a_255_character_name_is_stored_and_deleted(alice: TestClient) -> None:
    name = "n" * 251 + ".txt"
    response = alice.post("/personal/files", files={"file": (name, b"hola")})
    assert response.status_code == 201, response.text
    assert response.json() == {"rel_path": name, "size": 4}
    assert alice.delete(f"/personal/files/{name}").json() == {"ok": True}
    assert alice.get("/personal/files").json() == {"files": []}


CONTROL = "file name must not contain control characters (newline, tab…)"


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("carpeta/" * 32 + "x.txt", "file name longer than 255 characters"),
        ("ñ" * 130 + ".txt", "each part of a path is limited to 255 bytes"),
        ("notas\nviejas.txt", CONTROL),
        ("notas\tviejas.txt", CONTROL),
    ],
)
def test_names_no_folder_can_hold_are_422(alice: TestClient, name: str, detail: str) -> None:
    before = row_counts()
    # The ``path`` field carries the name as typed (a multipart file name would be escaped).
    if detail == CONTROL:
        response = alice.post(
            "/personal/files", files={"file": ("x.txt", b"hola")}, data={"path": name}
        )
    else:
        response = alice.post("/personal/files", files={"file": (name, b"hola")})
    assert response.status_code == 422
    assert response.json() == {"detail": detail}
    assert row_counts() == before
    assert _stored_files() == []


def test_a_name_taken_by_a_folder_is_409_and_leaves_nothing(alice: TestClient) -> None:
    assert alice.post("/personal/files", files={"file": ("notas/a.txt", b"a")}).status_code == 201
    before, files = row_counts(), _stored_files()
    response = alice.post("/personal/files", files={"file": ("notas", b"b")})
    assert response.status_code == 409
    assert response.json() == {"detail": "'notas' is a folder of your personal files"}
    assert row_counts() == before and _stored_files() == files
    assert not any(name.endswith(".uploading") for name in files)


def test_a_folder_through_a_file_is_409_and_leaves_nothing(alice: TestClient) -> None:
    assert alice.post("/personal/files", files={"file": ("notas", b"a")}).status_code == 201
    before, files = row_counts(), _stored_files()
    response = alice.post("/personal/files", files={"file": ("notas/a.txt", b"b")})
    assert response.status_code == 409
    assert response.json() == {"detail": "'notas' is a file, not a folder"}
    assert row_counts() == before and _stored_files() == files


def test_deleting_the_last_file_of_a_folder_frees_its_name(alice: TestClient) -> None:
    assert alice.post("/personal/files", files={"file": ("notas/a.txt", b"a")}).status_code == 201
    assert alice.delete("/personal/files/notas/a.txt").json() == {"ok": True}
    response = alice.post("/personal/files", files={"file": ("notas", b"b")})
    assert response.status_code == 201, response.text
    assert [p.split("/", 1)[1] for p in _stored_files()] == ["notas"]


BLANK = "Value error, must not be blank"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/chat", {"message": "\u3000", "version": W}, "message"),
        ("/qa/run", {"question": "\u3000 \u3000", "version": W}, "question"),
        ("/troubleshoot/run", {"symptom": "\u3000", "version": W}, "symptom"),
    ],
)
def test_a_message_of_only_ideographic_spaces_is_422(
    alice: TestClient, payroll: IndexReport, path: str, body: dict[str, str], field: str
) -> None:
    before = row_counts()
    response = alice.post(path, json=body)
    assert response.status_code == 422
    assert response.json() == {
        "detail": [{"loc": ["body", field], "msg": BLANK, "type": "value_error"}]
    }
    assert row_counts() == before


def test_a_streamed_message_of_only_an_ideographic_space_is_422(
    alice: TestClient, payroll: IndexReport
) -> None:
    before = row_counts()
    stream = alice.get("/chat/stream", params={"message": "\u3000", "version": W})
    assert stream.status_code == 422
    assert stream.json() == {
        "detail": [{"loc": ["query", "message"], "msg": BLANK, "type": "value_error"}]
    }
    assert row_counts() == before


@pytest.mark.parametrize("value", ["yes", "true", 1, 0, "on"])
@pytest.mark.parametrize("field", ["knowledge", "personal"])
def test_chat_booleans_are_json_booleans(
    alice: TestClient, payroll: IndexReport, field: str, value: object
) -> None:
    before = row_counts()
    response = alice.post("/chat", json={"message": "hola", "version": W, field: value})
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", field] and error["type"] == "bool_type"
    assert row_counts() == before


@pytest.mark.parametrize("value", ["yes", "1", "0", "on", "True"])
@pytest.mark.parametrize("field", ["knowledge", "personal"])
def test_stream_booleans_are_true_or_false(
    alice: TestClient, payroll: IndexReport, field: str, value: str
) -> None:
    before = row_counts()
    stream = alice.get("/chat/stream", params={"message": "hola", "version": W, field: value})
    assert stream.status_code == 422
    (error,) = stream.json()["detail"]
    assert error["loc"] == ["query", field]
    assert error["msg"] == "Value error, must be true or false"
    assert row_counts() == before


def test_stream_takes_true_and_false(alice: TestClient, payroll: IndexReport) -> None:
    params = {"message": "WS-TAX-RATE", "version": W, "knowledge": "true", "personal": "false"}
    stream = alice.get("/chat/stream", params=params)
    assert stream.status_code == 200
    assert "Knowledge is off" not in stream.text and '"type": "answer"' in stream.text


@pytest.mark.parametrize("value", ["yes", 1, "true"])
def test_pin_takes_only_a_json_boolean(
    alice: TestClient, payroll: IndexReport, value: object
) -> None:
    cid = alice.post("/chat", json={"message": "hola", "version": W}).json()["conversation_id"]
    response = alice.post(f"/conversations/{cid}/pin", json={"pinned": value})
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "bool_type"
    assert alice.get(f"/conversations/{cid}").json()["conversation"]["pinned"] is False


@pytest.mark.parametrize("title", ["two\nlines", "a\ttab", "carriage\rreturn"])
def test_titles_are_one_line(alice: TestClient, payroll: IndexReport, title: str) -> None:
    cid = alice.post("/chat", json={"message": "hola", "version": W}).json()["conversation_id"]
    old = alice.get(f"/conversations/{cid}").json()["conversation"]["title"]
    response = alice.patch(f"/conversations/{cid}", json={"title": title})
    assert response.status_code == 422
    (error,) = response.json()["detail"]
    assert error["loc"] == ["body", "title"]
    assert "one line" in error["msg"]
    assert alice.get(f"/conversations/{cid}").json()["conversation"]["title"] == old


def test_a_personal_file_with_nul_bytes_is_415_and_not_stored(alice: TestClient) -> None:
    before = row_counts()
    response = alice.post("/personal/files", files={"file": ("notas.txt", b"hola\x00mundo")})
    assert response.status_code == 415
    assert response.json() == {"detail": "personal files must be text: this file holds NUL bytes"}
    assert row_counts() == before and _stored_files() == []


@pytest.mark.parametrize(
    ("name", "detail"),
    [
        ("../x.txt", "file name '../x.txt' must not contain '..'"),
        ("/x.txt", "file name '/x.txt' must be relative to your personal folder"),
        (" ", "file name must be a non-empty string"),
        ("./", "file name './' names no folder"),
    ],
)
def test_personal_file_errors_speak_of_file_names(
    alice: TestClient, name: str, detail: str
) -> None:
    response = alice.post("/personal/files", files={"file": ("x.txt", b"a")}, data={"path": name})
    assert (response.status_code, response.json()) == (422, {"detail": detail})
    assert "scope path" not in response.text and _stored_files() == []


def test_removing_a_file_name_with_dots_speaks_of_file_names(alice: TestClient) -> None:
    removal = alice.delete("/personal/files/a%2F..%2F..%2Fx.txt")
    assert (removal.status_code, removal.json()) == (
        422,
        {"detail": "file name 'a/../../x.txt' must not contain '..'"},
    )
